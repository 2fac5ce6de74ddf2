import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createBlogModule, postsController } from '../../examples/blog/blog-module.js';
import { createApp, createManualClock, defineController, defineModule, get, type App } from '../index.js';
import { serve, type NodeServer } from '../node.js';
import { createClient } from './index.js';

const searchController = defineController({
  name: 'SearchController',
  prefix: '/search',
  routes: () => ({
    search: get('/', { query: z.object({ tag: z.array(z.string()).optional(), page: z.coerce.number().optional() }) }, (ctx) => ({ tags: ctx.query.tag ?? [], page: ctx.query.page ?? 1 })),
    echo: get('/echo/:id/*', (ctx) => ({ id: ctx.params.id, rest: ctx.params['*'] })),
  }),
});

let app: App;
let blogServer: NodeServer;
beforeAll(async () => {
  app = await createApp(createBlogModule({ clock: createManualClock(Date.parse('2026-11-22T00:00:00Z')) }));
  blogServer = await serve(app, { port: 0 });
});
afterAll(() => blogServer.close({ forceAfterMs: 200 }));

/** A client of the blog running on a real socket. */
const inProcess = () => createClient(postsController, blogServer.url);

describe('createClient against the blog (a live server)', () => {
  it('creates a post without `body` (defaulted on the input side) and reads the typed answer', async () => {
    const client = inProcess();
    const created = await client.create({ body: { title: 'Hello' } });
    expect(created.ok).toBe(true);
    expect(created.status).toBe(201);
    if (!created.ok) throw new Error('expected ok');
    expectTypeOf(created.data).toEqualTypeOf<{ id: string; title: string; body: string; createdAt: string }>();
    expect(created.data).toMatchObject({ title: 'Hello', body: '' });
  });

  it('reads, updates and deletes by id; a 204 has no data', async () => {
    const client = inProcess();
    const created = await client.create({ body: { title: 'T' } });
    if (!created.ok) throw new Error('create failed');
    const id = created.data.id;
    const read = await client.get({ params: { id } });
    expect(read.ok && read.data.title).toBe('T');
    const updated = await client.update({ params: { id }, body: { title: 'T2' } });
    expect(updated.ok && updated.data.title).toBe('T2');
    const removed = await client.remove({ params: { id } });
    expect(removed).toMatchObject({ ok: true, status: 204, data: undefined });
  });

  it('never throws for an HTTP error: a 404 and a 400 come back as problems', async () => {
    const client = inProcess();
    const missing = await client.get({ params: { id: '404' } });
    expect(missing.ok).toBe(false);
    if (missing.ok) throw new Error('expected a problem');
    expect(missing.problem).toMatchObject({ status: 404, title: 'Not Found' });
    const invalid = await client.create({ body: { title: '' } });
    expect(!invalid.ok && invalid.problem.status).toBe(400);
  });

  it('types what it can check at compile time (checked by npm run typecheck)', () => {
    const client = inProcess();
    // Never called: these lines exist for the compiler.
    const compileOnly = async () => {
      // @ts-expect-error a path parameter is required
      await client.get({});
      // @ts-expect-error a misspelt path parameter
      await client.get({ params: { idd: '1' } });
      // @ts-expect-error the body has no such field
      await client.create({ body: { title: 'x', extra: 1 } });
      // @ts-expect-error no such route
      await client.nope();
      const read = await client.get({ params: { id: '1' } });
      // @ts-expect-error the response has no such field
      if (read.ok) void read.data.missingField;
    };
    expect(typeof compileOnly).toBe('function');
    expect(typeof client.list).toBe('function');
  });
});

describe('createClient over a live server', () => {
  let server: NodeServer;
  beforeAll(async () => {
    server = await serve(await createApp(createBlogModule()), { port: 0 });
  });
  afterAll(() => server.close({ forceAfterMs: 200 }));

  it('lists posts from a running blog, with default headers', async () => {
    const client = createClient(postsController, { baseUrl: server.url, headers: { 'x-client': 'test' } });
    await client.create({ body: { title: 'live' } });
    const list = await client.list();
    expect(list.ok && list.data.map((p) => p.title)).toEqual(['live']);
  });
});

describe('a class-style controller', () => {
  it('gets one method per class method, with loose inputs and unknown data', async () => {
    const { createClassBlogModule } = await import('../../examples/blog-classes/blog-module.js');
    const { PostsController } = await import('../../examples/blog-classes/posts-controller.js');
    const classApp = await createApp(createClassBlogModule());
    const client = createClient(PostsController, { baseUrl: 'http://classes.test', fetch: (request) => classApp.fetch(request) });
    const created = await client.create({ body: { title: 'class style' } });
    expect(created).toMatchObject({ ok: true, status: 201 });
    expectTypeOf(created).toEqualTypeOf<Awaited<ReturnType<typeof client.create>>>();
    if (created.ok) expectTypeOf(created.data).toEqualTypeOf<unknown>();
    const read = await client.get({ params: { id: '1' } });
    expect(read.ok && read.data).toMatchObject({ title: 'class style' });
  });
});

describe('requests the server reads back', () => {
  it('serialises array queries as repeated keys (one value included) and encodes path parameters', async () => {
    const searchApp = await createApp(defineModule({ name: 'S', controllers: [searchController] }));
    const client = createClient(searchController, { baseUrl: 'http://s.test', fetch: (request) => searchApp.fetch(request) });
    expect(await client.search({ query: { tag: ['a'] } }).then((a) => a.ok && a.data)).toEqual({ tags: ['a'], page: 1 });
    expect(await client.search({ query: { tag: ['a', 'b'], page: 2 } }).then((a) => a.ok && a.data)).toEqual({ tags: ['a', 'b'], page: 2 });
    expect(await client.echo({ params: { id: 'a b/c', '*': 'x/y z' } }).then((a) => a.ok && a.data)).toEqual({ id: 'a b/c', rest: 'x/y z' });
  });

  it('combines several controllers into one client', async () => {
    const both = createClient([postsController, searchController], { baseUrl: 'http://blog.test', fetch: (request) => app.fetch(request) });
    expect(typeof both.create).toBe('function');
    expect(typeof both.search).toBe('function');
  });
});
