import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { postsController } from '../../examples/blog/blog-module.js';
import { createBlogModule } from '../../examples/blog/blog-module.js';
import type { tenantPostsController } from '../../examples/tenants/tenant-posts-controller.js';
import { createApp, createManualClock, defineController, defineModule, get, type App } from '../index.js';
import { createFetchClient, type ApiOf, type JoinPaths } from './index.js';

type BlogApi = ApiOf<[typeof postsController]>;

const searchController = defineController({
  name: 'SearchController',
  prefix: '/search/',
  routes: () => ({
    search: get('/', { query: z.object({ tag: z.array(z.string()).optional(), page: z.coerce.number().optional() }) }, (ctx) => ({ tags: ctx.query.tag ?? [], page: ctx.query.page ?? 1 })),
    echo: get('/echo/:id/*', (ctx) => ({ id: ctx.params.id, rest: ctx.params['*'] })),
  }),
});

let app: App;
beforeAll(async () => {
  app = await createApp(createBlogModule({ clock: createManualClock(Date.parse('2026-11-25T00:00:00Z')) }));
});

/** The type-only client of the blog, sending through the app in process. */
const blog = () => createFetchClient<BlogApi>({ baseUrl: 'http://blog.test/', fetch: (request) => app.fetch(request) });

describe('createFetchClient against the blog', () => {
  it('creates a post and reads the typed answer of the response schema', async () => {
    const created = await blog().POST('/posts', { body: { title: 'Hello' } });
    if (!created.ok) throw new Error(`create failed: ${created.status}`);
    expectTypeOf(created.data).toEqualTypeOf<{ id: string; title: string; body: string; createdAt: string }>();
    expect([created.status, created.data.title, created.data.body]).toEqual([201, 'Hello', '']);
  });

  it('reads, updates and deletes by id through the path template and its params; a 204 has no data', async () => {
    const api = blog();
    const created = await api.POST('/posts', { body: { title: 'T' } });
    if (!created.ok) throw new Error('create failed');
    const { id } = created.data;
    const read = await api.GET('/posts/:id', { params: { id } });
    expect(read.ok && read.data.title).toBe('T');
    const updated = await api.PATCH('/posts/:id', { params: { id }, body: { title: 'T2' } });
    expect(updated.ok && updated.data.title).toBe('T2');
    expect(await api.DELETE('/posts/:id', { params: { id } })).toMatchObject({ ok: true, status: 204, data: undefined });
  });

  it('resolves an HTTP error to a problem, never a throw: a 400 carries its issues', async () => {
    const invalid = await blog().POST('/posts', { body: { title: '' } });
    if (invalid.ok) throw new Error('expected a problem');
    expect(invalid.problem).toMatchObject({ status: 400, issues: [expect.objectContaining({ path: ['title'] })] });
  });

  it('sends the query as repeated keys and keeps a wildcard\u2019s slashes', async () => {
    const searchApp = await createApp(defineModule({ name: 'SearchModule', controllers: [searchController] }));
    const api = createFetchClient<ApiOf<[typeof searchController]>>({ baseUrl: 'http://s.test', fetch: (request) => searchApp.fetch(request) });
    const found = await api.GET('/search', { query: { tag: ['a', 'b'], page: 2 } });
    expect(found.ok && found.data).toEqual({ tags: ['a', 'b'], page: 2 });
    const echoed = await api.GET('/search/echo/:id/*', { params: { id: 'a b', '*': 'x/y z' } });
    expect(echoed.ok && echoed.data).toEqual({ id: 'a b', rest: 'x/y z' });
  });

  it('rejects (no request sent) when a param is missing at run time, which only untyped code can do', async () => {
    let sent = 0;
    const api = createFetchClient<BlogApi>({ baseUrl: 'http://blog.test', fetch: (request) => (sent++, app.fetch(request)) });
    await expect(api.GET('/posts/:id', {} as never)).rejects.toThrow("GET /posts/:id: path parameter 'id' is missing.");
    expect(sent).toBe(0);
  });

  it('sends the default headers and lets a call\u2019s own win', async () => {
    const seen: Headers[] = [];
    const api = createFetchClient<BlogApi>({ baseUrl: 'http://blog.test', headers: { 'x-a': '1', 'x-b': '1' }, fetch: (request) => (seen.push(request.headers), app.fetch(request)) });
    await api.GET('/posts', { headers: { 'x-b': '2' } });
    expect([seen[0]?.get('x-a'), seen[0]?.get('x-b'), seen[0]?.get('accept')]).toEqual(['1', '2', 'application/json']);
  });
});

describe('the types of the type-only client (checked by npm run typecheck)', () => {
  it('joins prefixes and paths as the router does', () => {
    expectTypeOf<JoinPaths<'/posts/', '/'>>().toEqualTypeOf<'/posts'>();
    expectTypeOf<JoinPaths<'/tenants/:tenantId/posts', '/:id'>>().toEqualTypeOf<'/tenants/:tenantId/posts/:id'>();
    expectTypeOf<JoinPaths<'', ''>>().toEqualTypeOf<'/'>();
  });

  it('lists exactly the blog\u2019s methods and paths', () => {
    expectTypeOf<Extract<BlogApi, { method: 'GET' }>['path']>().toEqualTypeOf<'/posts' | '/posts/:id'>();
    expectTypeOf<Extract<BlogApi, { method: 'DELETE' }>['path']>().toEqualTypeOf<'/posts/:id'>();
  });

  it('refuses at compile time what the API does not have or a route does not take', () => {
    const api = createFetchClient<ApiOf<[typeof postsController, typeof tenantPostsController]>>('http://unused.test');
    const never = (): void => {
      // @ts-expect-error: no such path
      void api.GET('/post/:id', { params: { id: '1' } });
      // @ts-expect-error: the blog has no PUT
      void api.PUT('/posts/:id', { params: { id: '1' }, body: {} });
      // @ts-expect-error: the param is required
      void api.GET('/posts/:id');
      // @ts-expect-error: a misspelt param
      void api.GET('/posts/:id', { params: { idd: '1' } });
      // @ts-expect-error: a body field the schema lacks
      void api.POST('/posts', { body: { title: 'x', titel: 'y' } });
      // @ts-expect-error: the tenant's param is required too
      void api.GET('/tenants/:tenantId/posts/:id', { params: { id: '1' } });
    };
    expect(typeof never).toBe('function');
  });

  it('types the tenants\u2019 routes with their prefix parameter and data', async () => {
    const api = createFetchClient<ApiOf<[typeof tenantPostsController]>>({ baseUrl: 'http://unused.test', fetch: async () => Response.json({ type: 'about:blank', title: 'Unauthorized', status: 401 }, { status: 401 }) });
    const answer = await api.GET('/tenants/:tenantId/posts', { params: { tenantId: 'acme' } });
    if (answer.ok) expectTypeOf(answer.data).toEqualTypeOf<{ id: string; title: string; body: string; createdAt: string }[]>();
    else expectTypeOf(answer.problem.status).toEqualTypeOf<number>();
    expect(answer.status).toBe(401);
  });
});

describe('createFetchClient: socket, typed both ways', () => {
  const Say = z.object({ text: z.string().max(50), at: z.coerce.date().optional() });
  const Heard = z.object({ room: z.string(), text: z.string(), at: z.date().optional() });
  const roomsController = defineController({
    name: 'RoomsController',
    prefix: '/rooms',
    routes: ({ ws }) => ({
      room: ws('/:room', { query: z.object({ shout: z.enum(['yes', 'no']).optional() }), message: Say, send: Heard }, {
        message: (conn, said) => void conn.send({ room: conn.params.room, text: conn.query.shout === 'yes' ? said.text.toUpperCase() : said.text, at: said.at }),
      }),
    }),
  });
  type RoomsApi = ApiOf<[typeof roomsController, typeof postsController]>;

  it('types the path params, query and token, what send takes and what listeners receive', () => {
    const api = createFetchClient<RoomsApi>('http://rooms.test');
    type Socket = ReturnType<typeof api.socket<'/rooms/:room'>>;
    expectTypeOf<Parameters<Socket['send']>[0]>().toEqualTypeOf<{ text: string; at?: unknown }>();
    expectTypeOf<Parameters<Parameters<Socket['onMessage']>[0]>[0]>().toEqualTypeOf<{ room: string; text: string; at?: string }>();
    type Input = Parameters<typeof api.socket<'/rooms/:room'>>[1];
    expectTypeOf<Input['params']>().toEqualTypeOf<{ readonly room: string | number }>();
    expectTypeOf<NonNullable<Input['query']>['shout']>().toEqualTypeOf<'yes' | 'no' | undefined>();
    expectTypeOf<Input['token']>().toEqualTypeOf<string | undefined>();
    // @ts-expect-error a WebSocket route is not an HTTP GET of the client
    void (() => api.GET('/rooms/:room', { params: { room: 'a' } }));
    // @ts-expect-error an HTTP route is not a socket
    void (() => api.socket('/posts'));
  });

  it('opens a route over a real socket, fills params and query, and round-trips a typed message', async () => {
    const { serve } = await import('../node.js');
    const { default: WebSocket } = await import('ws');
    const server = await serve(await createApp(defineModule({ name: 'Rooms', controllers: [roomsController] })), { port: 0 });
    try {
      const api = createFetchClient<RoomsApi>({ baseUrl: server.url, WebSocket: WebSocket as unknown as typeof globalThis.WebSocket });
      const room = api.socket('/rooms/:room', { params: { room: 'lobby' }, query: { shout: 'yes' } });
      await room.opened;
      const heard = new Promise<unknown>((resolve) => room.onMessage(resolve));
      room.send({ text: 'hello' });
      expect(await heard).toEqual({ room: 'lobby', text: 'HELLO' });
      room.close();
      expect((await room.closed).code).toBe(1005);
    } finally {
      await server.close({ forceAfterMs: 500 });
    }
  });

  it('rejects `opened` when the server refuses the upgrade', async () => {
    const { serve } = await import('../node.js');
    const { default: WebSocket } = await import('ws');
    const server = await serve(await createApp(defineModule({ name: 'Rooms', controllers: [roomsController] })), { port: 0 });
    try {
      const api = createFetchClient<RoomsApi>({ baseUrl: server.url, WebSocket: WebSocket as unknown as typeof globalThis.WebSocket });
      const refused = api.socket('/rooms/:room', { params: { room: 'lobby' }, query: { shout: 'maybe' as 'yes' } });
      await expect(refused.opened).rejects.toThrow(/closed before it opened/);
    } finally {
      await server.close({ forceAfterMs: 500 });
    }
  });
});
