import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createApp, defineController, defineModule, get, post, type Guard, type RequestContext, silentLogger } from '../index.js';

const Id = z.object({ id: z.coerce.number().int().positive() });

function moduleOf(routes: Parameters<typeof defineController>[0]['routes']) {
  return defineModule({ name: 'M', controllers: [defineController({ name: 'ItemsController', routes })] });
}

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('path parameters parsed by a params schema', () => {
  it('hands the handler the schema output: a number for z.coerce.number()', async () => {
    const app = await createApp(moduleOf(() => ({ show: get('/items/:id', { params: Id }, (ctx) => ({ id: ctx.params.id, type: typeof ctx.params.id })) })));
    const res = await app.request('/items/42');
    expect(res.status).toBe(200);
    expect(await res.json(), 'ctx.params.id should be the parsed number').toEqual({ id: 42, type: 'number' });
  });

  it('answers a failed parameter with the 400 validation problem, its issue path naming the parameter', async () => {
    const app = await createApp(moduleOf(() => ({ show: get('/items/:id', { params: Id }, (ctx) => ctx.params.id) })));
    const res = await app.request('/items/abc');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const problem = (await res.json()) as { status: number; detail: string; issues: { path: unknown[] }[] };
    expect(problem.status).toBe(400);
    expect(problem.detail, 'the detail says the path parameters failed').toBe('Path parameters failed validation.');
    expect(problem.issues.map((issue) => issue.path)).toEqual([['id']]);
  });

  it('runs no handler for a refused parameter', async () => {
    let calls = 0;
    const app = await createApp(moduleOf(() => ({ show: get('/items/:id', { params: Id }, () => ++calls) })));
    expect((await app.request('/items/-3')).status).toBe(400);
    expect(calls, 'the handler ran for an invalid id').toBe(0);
  });

  it('leaves the parameters the schema does not name as strings (a prefix parameter here)', async () => {
    const controller = defineController({
      name: 'ItemsController',
      prefix: '/tenants/:tenant',
      routes: ({ get: bound }) => ({ show: bound('/items/:id', { params: Id }, (ctx) => ({ tenant: ctx.params.tenant, id: ctx.params.id })) }),
    });
    const app = await createApp(defineModule({ name: 'M', controllers: [controller] }));
    expect(await (await app.request('/tenants/acme/items/7')).json()).toEqual({ tenant: 'acme', id: 7 });
  });

  it('gives a strict object only the parameters it names, so a prefix parameter it leaves alone is no unknown key', async () => {
    const controller = defineController({
      name: 'ItemsController',
      prefix: '/tenants/:tenant',
      routes: ({ get: bound }) => ({ show: bound('/items/:id', { params: z.strictObject({ id: z.coerce.number() }) }, (ctx) => ctx.params) }),
    });
    const app = await createApp(defineModule({ name: 'M', controllers: [controller] }));
    const res = await app.request('/tenants/acme/items/7');
    expect(res.status, 'the strict schema saw the prefix parameter').toBe(200);
    expect(await res.json()).toEqual({ tenant: 'acme', id: 7 });
  });

  it('parses the parameters after the guards (which see the strings) and before the body is read', async () => {
    const seen: string[] = [];
    class RecordingGuard implements Guard {
      canActivate(ctx: RequestContext): boolean {
        seen.push(typeof ctx.params.id);
        return true;
      }
    }
    const app = await createApp(
      moduleOf(() => ({ update: post('/items/:id', { params: Id, body: z.object({ name: z.string() }), guards: [RecordingGuard] }, (ctx) => ctx.params.id) })),
      { logger: silentLogger },
    );
    const res = await app.request('/items/x', json({ name: 1 }));
    const problem = (await res.json()) as { detail: string };
    expect(problem.detail, 'the params failure should come before the body failure').toBe('Path parameters failed validation.');
    expect(seen, 'the guard should run first, on the unparsed string').toEqual(['string']);
  });

  it('takes a schema with an async refinement (a lookup), refusing with the same 400', async () => {
    const known = new Set([1, 2]);
    const Known = z.object({ id: z.coerce.number().refine(async (id) => known.has(id), { message: 'no such item' }) });
    const app = await createApp(moduleOf(() => ({ show: get('/items/:id', { params: Known }, (ctx) => ctx.params.id) })));
    expect(await (await app.request('/items/2')).json()).toBe(2);
    const refused = await app.request('/items/3');
    expect(refused.status, 'the async refinement should refuse an unknown id').toBe(400);
    expect(((await refused.json()) as { issues: { message: string }[] }).issues[0]?.message).toBe('no such item');
  });

  it('types ctx.params from the schema output, and keeps strings without one', () => {
    get('/items/:id', { params: Id }, (ctx) => {
      expectTypeOf(ctx.params).toEqualTypeOf<{ readonly id: number }>();
      // @ts-expect-error: the schema's output is a number, not a string
      void ctx.params.id.toUpperCase();
      return null;
    });
    get('/items/:id/:slug', { params: Id }, (ctx) => {
      expectTypeOf(ctx.params).toEqualTypeOf<{ readonly slug: string; readonly id: number }>();
      return null;
    });
    get('/items/:id', (ctx) => {
      expectTypeOf(ctx.params).toEqualTypeOf<{ readonly id: string }>();
      return null;
    });
    expect(true).toBe(true);
  });
});

describe('params schema definition errors at createApp', () => {
  it('refuses a parameter the path does not declare, naming the route and the parameter', async () => {
    const attempt = createApp(moduleOf(() => ({ show: get('/items/:id', { params: z.object({ id: z.string(), slug: z.string() }) }, () => null) })));
    await expect(attempt).rejects.toThrow("ItemsController.show (GET /items/:id): 'params' names the path parameter 'slug', which the path does not declare (it declares 'id').");
  });

  it('refuses a params option that is not a zod object', async () => {
    const attempt = createApp(moduleOf(() => ({ show: get('/items/:id', { params: z.string() as never }, () => null) })));
    await expect(attempt).rejects.toThrow(/ItemsController\.show \(GET \/items\/:id\): 'params' is .* of type 'string', not a zod object/);
  });

  it('accepts a schema naming a prefix parameter', async () => {
    const controller = defineController({
      name: 'ItemsController',
      prefix: '/tenants/:tenant',
      routes: ({ get: bound }) => ({ show: bound('/items', { params: z.object({ tenant: z.enum(['acme']) }) }, (ctx) => ctx.params.tenant) }),
    });
    const app = await createApp(defineModule({ name: 'M', controllers: [controller] }));
    expect(await (await app.request('/tenants/acme/items')).json()).toBe('acme');
    expect((await app.request('/tenants/other/items')).status).toBe(400);
  });
});
