import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as v from 'valibot';
import { type } from 'arktype';
import { defineModule } from '../modules/module.js';
import { defineController } from '../routing/controller.js';
import { get, post } from '../routing/route.js';
import { createApp } from './create-app.js';

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

interface Problem {
  readonly status: number;
  readonly detail: string;
  readonly issues: readonly { readonly code: string; readonly path: readonly (string | number)[]; readonly message: string }[];
}

async function problemOf(response: Response): Promise<Problem> {
  expect(response.status, 'the request was not refused with 400').toBe(400);
  expect(response.headers.get('content-type')).toContain('application/problem+json');
  return (await response.json()) as Problem;
}

const taken = new Set(['admin']);

describe('valibot schemas', () => {
  const CreatePost = v.object({ title: v.pipe(v.string(), v.minLength(1)), tags: v.optional(v.array(v.string()), []) });
  const List = v.object({ tag: v.optional(v.array(v.string())), page: v.optional(v.pipe(v.string(), v.transform(Number), v.integer()), '1') });
  const Id = v.object({ id: v.pipe(v.string(), v.transform(Number), v.integer()) });
  const SignUp = v.pipeAsync(
    v.object({ name: v.string() }),
    v.checkAsync(async (value) => !taken.has(value.name), 'name taken'),
  );
  const app = () =>
    createApp(
      defineModule({
        name: 'M',
        controllers: [
          defineController({
            name: 'Posts',
            prefix: '/posts',
            routes: () => ({
              create: post('/', { body: CreatePost, status: 201 }, (ctx) => ({ title: ctx.body.title.toUpperCase(), tags: ctx.body.tags })),
              list: get('/', { query: List }, (ctx) => ({ tag: ctx.query.tag ?? null, page: ctx.query.page })),
              show: get('/:id', { params: Id }, (ctx) => ({ id: ctx.params.id, next: ctx.params.id + 1 })),
              signUp: post('/sign-up', { body: SignUp }, (ctx) => ({ name: ctx.body.name })),
            }),
          }),
        ],
      }),
    );

  it('gives the handler the body schema output (defaults applied)', async () => {
    const response = await (await app()).request('/posts', json({ title: 'hello' }));
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ title: 'HELLO', tags: [] });
  });

  it('refuses an invalid body with the 400 problem, each issue with a code, a key path and a message', async () => {
    const problem = await problemOf(await (await app()).request('/posts', json({ title: '', tags: ['a', 7] })));
    expect(problem.detail).toBe('Request body failed validation.');
    expect(problem.issues.map((issue) => issue.path)).toEqual([['title'], ['tags', 1]]);
    expect(problem.issues.map((issue) => issue.code)).toEqual(['min_length', 'string']);
    expect(problem.issues.every((issue) => typeof issue.message === 'string' && issue.message.length > 0), 'an issue has no message').toBe(true);
  });

  it('parses the query, a single value of a list key arriving as a one-element list', async () => {
    const a = await app();
    expect(await (await a.request('/posts?tag=a&page=2')).json()).toEqual({ tag: ['a'], page: 2 });
    expect(await (await a.request('/posts?tag=a&tag=b')).json()).toEqual({ tag: ['a', 'b'], page: 1 });
    expect(await (await a.request('/posts')).json()).toEqual({ tag: null, page: 1 });
  });

  it('refuses an invalid query with the first attempt\'s issues', async () => {
    const problem = await problemOf(await (await app()).request('/posts?page=x'));
    expect(problem.detail).toBe('Query failed validation.');
    expect(problem.issues.map((issue) => issue.path)).toEqual([['page']]);
  });

  it('parses path parameters with a params schema', async () => {
    const a = await app();
    expect(await (await a.request('/posts/41')).json()).toEqual({ id: 41, next: 42 });
    const problem = await problemOf(await a.request('/posts/x'));
    expect(problem.detail).toBe('Path parameters failed validation.');
    expect(problem.issues.map((issue) => issue.path)).toEqual([['id']]);
  });

  it('awaits an async validator', async () => {
    const a = await app();
    expect(await (await a.request('/posts/sign-up', json({ name: 'ada' }))).json()).toEqual({ name: 'ada' });
    const problem = await problemOf(await a.request('/posts/sign-up', json({ name: 'admin' })));
    expect(problem.issues.map((issue) => issue.message)).toEqual(['name taken']);
  });
});

describe('ArkType schemas', () => {
  const CreatePost = type({ title: 'string > 0', 'tags?': 'string[]' });
  const List = type({ 'tag?': 'string[]', 'page?': 'string.integer.parse' });
  const Id = type({ id: 'string.integer.parse' });
  const app = () =>
    createApp(
      defineModule({
        name: 'M',
        controllers: [
          defineController({
            name: 'Posts',
            prefix: '/posts',
            routes: () => ({
              create: post('/', { body: CreatePost, status: 201 }, (ctx) => ({ title: ctx.body.title.toUpperCase(), tags: ctx.body.tags ?? [] })),
              list: get('/', { query: List }, (ctx) => ({ tag: ctx.query.tag ?? null, page: ctx.query.page ?? 1 })),
              show: get('/:id', { params: Id }, (ctx) => ({ id: ctx.params.id, next: ctx.params.id + 1 })),
            }),
          }),
        ],
      }),
    );

  it('gives the handler the body schema output', async () => {
    const response = await (await app()).request('/posts', json({ title: 'hello', tags: ['x'] }));
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ title: 'HELLO', tags: ['x'] });
  });

  it('refuses an invalid body with the 400 problem, paths as keys and indexes', async () => {
    const problem = await problemOf(await (await app()).request('/posts', json({ title: '', tags: ['a', 7] })));
    expect(problem.issues.map((issue) => issue.path).sort()).toEqual([['tags', 1], ['title']]);
    expect(problem.issues.every((issue) => typeof issue.code === 'string' && issue.message.length > 0), 'an issue lacks a code or message').toBe(true);
  });

  it('parses the query and path parameters', async () => {
    const a = await app();
    expect(await (await a.request('/posts?tag=a&page=3')).json()).toEqual({ tag: ['a'], page: 3 });
    expect(await (await a.request('/posts/9')).json()).toEqual({ id: 9, next: 10 });
    expect((await problemOf(await a.request('/posts/nine'))).issues.map((issue) => issue.path)).toEqual([['id']]);
  });
});

describe('zod schemas beside them', () => {
  it('still answer with zod\'s own issues', async () => {
    const app = await createApp(
      defineModule({
        name: 'M',
        controllers: [defineController({ name: 'C', routes: () => ({ create: post('/', { body: z.object({ title: z.string().min(1) }) }, (ctx) => ctx.body) }) })],
      }),
    );
    const problem = await problemOf(await app.request('/', json({ title: '' })));
    expect(problem.issues).toEqual([z.object({ title: z.string().min(1) }).safeParse({ title: '' }).error?.issues[0]].map((issue) => JSON.parse(JSON.stringify(issue))));
  });
});
