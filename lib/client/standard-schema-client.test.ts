import { describe, expect, expectTypeOf, it } from 'vitest';
import * as v from 'valibot';
import { type } from 'arktype';
import { createApp, defineController, defineModule, get, post } from '../index.js';
import { createClient, createFetchClient, type ApiOf } from './index.js';

// The typed clients take a schema's input side and give its output side (as JSON delivers it),
// whatever the library: checked by the compiler and by what arrives.
const CreatePost = v.object({ title: v.string(), views: v.optional(v.pipe(v.string(), v.transform(Number)), '0') });
const PostOut = v.object({ id: v.number(), title: v.string(), views: v.number(), at: v.date() });
const Search = type({ 'page?': 'string.integer.parse' });
const Id = v.object({ id: v.pipe(v.string(), v.transform(Number)) });
const AT = new Date('2026-11-26T00:00:00.000Z');

const posts = defineController({
  name: 'Posts',
  prefix: '/posts',
  routes: () => ({
    create: post('/', { body: CreatePost, response: PostOut, status: 201 }, (ctx) => ({ id: 1, title: ctx.body.title, views: ctx.body.views, at: AT })),
    search: get('/', { query: Search }, (ctx) => ({ page: ctx.query.page ?? 1 })),
    show: get('/:id', { params: Id }, (ctx) => ({ id: ctx.params.id })),
  }),
});

const inProcess = async () => {
  const app = await createApp(defineModule({ name: 'M', controllers: [posts] }));
  return { baseUrl: 'http://posts.test', fetch: (request: Request) => app.fetch(request) };
};

describe('typed clients of valibot and ArkType routes', () => {
  it('the named client sends the body input side and types data as the response output, as JSON delivers it', async () => {
    const client = createClient(posts, await inProcess());
    type Input = Parameters<typeof client.create>[0];
    expectTypeOf<Input['body']>().toEqualTypeOf<{ title: string; views?: string | undefined }>();
    const answer = await client.create({ body: { title: 'Hi', views: '3' } });
    if (!answer.ok) throw new Error(`expected 201, got ${answer.status}`);
    expectTypeOf(answer.data).toEqualTypeOf<{ id: number; title: string; views: number; at: string }>();
    expect(answer.data).toEqual({ id: 1, title: 'Hi', views: 3, at: AT.toISOString() });
  });

  it('the fetch client takes the query and params input sides', async () => {
    const api = createFetchClient<ApiOf<[typeof posts]>>(await inProcess());
    const found = await api.GET('/posts', { query: { page: '2' } });
    if (!found.ok) throw new Error(`expected 200, got ${found.status}`);
    expect(found.data).toEqual({ page: 2 });
    const shown = await api.GET('/posts/:id', { params: { id: '7' } });
    if (!shown.ok) throw new Error(`expected 200, got ${shown.status}`);
    expectTypeOf(shown.data).toEqualTypeOf<{ id: number }>();
    expect(shown.data).toEqual({ id: 7 });
  });
});
