import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { type } from 'arktype';
import { createApp, defineModule, type SchemaOutput } from '../lib/index.js';
import { Body, Controller, Get, Param, Post, Query, Returns } from './index.js';

const CreatePost = v.object({ title: v.pipe(v.string(), v.minLength(1)) });
const Post_ = v.object({ id: v.number(), title: v.string() });
const Paging = type({ 'page?': 'string.integer.parse' });
const NumericId = v.pipe(v.string(), v.transform(Number), v.integer());

@Controller('tenants/:tenant/posts')
class PostsController {
  @Post()
  @Returns(Post_)
  create(@Body(CreatePost) input: SchemaOutput<typeof CreatePost>) {
    return { id: 1, title: input.title, secret: 'do-not-send' };
  }

  @Get()
  list(@Query(Paging) paging: SchemaOutput<typeof Paging>) {
    return { page: paging.page ?? 1 };
  }

  @Get(':id')
  show(@Param('tenant') tenant: string, @Param('id', NumericId) id: number) {
    return { tenant, id, type: typeof id };
  }
}

const app = () => createApp(defineModule({ name: 'M', controllers: [PostsController] }));
const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('facade decorators with valibot and ArkType schemas', () => {
  it('@Body validates and @Returns strips', async () => {
    const a = await app();
    const created = await a.request('/tenants/acme/posts', json({ title: 'Hi' }));
    expect(await created.text()).toBe('{"id":1,"title":"Hi"}');
    const refused = await a.request('/tenants/acme/posts', json({ title: '' }));
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { issues: { path: unknown[] }[] }).issues.map((issue) => issue.path)).toEqual([['title']]);
  });

  it('@Query parses with an ArkType schema', async () => {
    expect(await (await (await app()).request('/tenants/acme/posts?page=3')).json()).toEqual({ page: 3 });
  });

  it('@Param(name, schema) parses with a valibot schema; a failure names the parameter', async () => {
    const a = await app();
    expect(await (await a.request('/tenants/acme/posts/12')).json()).toEqual({ tenant: 'acme', id: 12, type: 'number' });
    const refused = await a.request('/tenants/acme/posts/x');
    expect(refused.status).toBe(400);
    const problem = (await refused.json()) as { detail: string; issues: { path: unknown[]; code: string }[] };
    expect(problem.detail).toBe('Path parameters failed validation.');
    expect(problem.issues.map((issue) => issue.path)).toEqual([['id']]);
    expect(problem.issues.every((issue) => typeof issue.code === 'string'), 'an issue has no code').toBe(true);
  });
});
