import { describe, expect, it } from 'vitest';
import type { App, ManualClock } from '../../lib/index.js';
import { send } from '../http-helpers.js';

// The blog's API checks (SPEC: Blog API) as one function over an app factory, so the same checks
// run against the zod blog (examples/blog/blog.test.ts) and against the blog's schemas rewritten
// in valibot and in ArkType (test/standard-schema/blog-validators.test.ts). Nothing here names a
// validator: a check that holds for one library must hold for all.

/** A fresh blog app and the manual clock its store stamps `createdAt` with. */
export type BlogFactory = () => Promise<{ app: App; clock: ManualClock }>;

/** `2026-11-21T10:00:00.000Z`, the time every blog factory's clock starts at. */
export const BLOG_T0 = Date.parse('2026-11-21T10:00:00.000Z');

/**
 * Registers the blog API checks for `blog` under `name`.
 *
 * @example
 * describeBlogChecks('blog API (zod)', async () => { const clock = createManualClock(BLOG_T0); return { app: await createApp(createBlogModule({ clock })), clock }; });
 */
export function describeBlogChecks(name: string, blog: BlogFactory): void {
  describe(name, () => {
    it('creates posts with counter ids as strings, ISO createdAt and body defaulting to ""', async () => {
      const { app, clock } = await blog();
      const first = await send(app, 'POST', '/posts', { json: { title: 'First' } });
      expect(first.status, 'create answers 201').toBe(201);
      expect(first.headers.get('content-type'), 'created post is JSON').toBe('application/json');
      expect(first.json, 'first post: id 1, body defaulted').toEqual({ id: '1', title: 'First', body: '', createdAt: '2026-11-21T10:00:00.000Z' });
      clock.advance(1500);
      const second = await send(app, 'POST', '/posts', { json: { title: 'Second', body: 'text' } });
      expect(second.json, 'second post: id 2, createdAt from the clock').toEqual({ id: '2', title: 'Second', body: 'text', createdAt: '2026-11-21T10:00:01.500Z' });
    });

    it('lists, gets, patches and deletes', async () => {
      const { app } = await blog();
      await send(app, 'POST', '/posts', { json: { title: 'A', body: 'a' } });
      await send(app, 'POST', '/posts', { json: { title: 'B' } });
      const list = await send(app, 'GET', '/posts');
      expect(list.status, 'list answers 200').toBe(200);
      expect((list.json as { id: string }[]).map((p) => p.id), 'list in creation order').toEqual(['1', '2']);

      const one = await send(app, 'GET', '/posts/1');
      expect(one.json, 'get answers the post').toMatchObject({ id: '1', title: 'A', body: 'a' });

      const patched = await send(app, 'PATCH', '/posts/1', { json: { body: 'changed' } });
      expect(patched.status, 'patch answers 200').toBe(200);
      expect(patched.json, 'patch changes only the given field').toEqual({ ...(one.json as object), body: 'changed' });

      const removed = await send(app, 'DELETE', '/posts/1');
      expect(removed.status, 'delete answers 204').toBe(204);
      expect(removed.text, '204 has an empty body').toBe('');
      expect((await send(app, 'GET', '/posts/1')).status, 'a deleted post is gone').toBe(404);
    });

    it('keeps absent fields, and never changes id or createdAt on update', async () => {
      const { app, clock } = await blog();
      const created = (await send(app, 'POST', '/posts', { json: { title: 'A', body: 'a' } })).json as Record<string, string>;
      clock.advance(60_000);
      const patched = await send(app, 'PATCH', '/posts/1', { json: { title: 'B', id: '99', createdAt: 'never' } });
      expect(patched.json, 'id and createdAt in an update body are dropped by the schema').toEqual({ id: '1', title: 'B', body: 'a', createdAt: created.createdAt });
      const empty = await send(app, 'PATCH', '/posts/1', { json: {} });
      expect(empty.json, 'an empty update changes nothing').toEqual(patched.json);
    });

    it('answers 404 problem+json for an unknown id on get, update and delete', async () => {
      const { app } = await blog();
      for (const [method, json] of [['GET', undefined], ['PATCH', { title: 'x' }], ['DELETE', undefined]] as const) {
        const res = await send(app, method, '/posts/42', { json });
        expect(res.status, `${method}: 404`).toBe(404);
        expect(res.headers.get('content-type'), `${method}: problem+json`).toBe('application/problem+json');
        expect(res.json, `${method}: a Not Found problem`).toMatchObject({ status: 404, title: 'Not Found' });
      }
    });

    it('answers 400 problem+json with the issues (path and message) for invalid bodies', async () => {
      const { app } = await blog();
      const missing = await send(app, 'POST', '/posts', { json: { body: 'no title' } });
      expect(missing.status, 'a missing title is a 400').toBe(400);
      expect(missing.headers.get('content-type'), 'the 400 is problem+json').toBe('application/problem+json');
      const issues = (missing.json as { issues: { path: unknown[]; message: unknown }[] }).issues;
      expect(issues, 'one issue at title, with a message').toEqual([expect.objectContaining({ path: ['title'], message: expect.any(String) })]);

      const empty = await send(app, 'POST', '/posts', { json: { title: '' } });
      expect(empty.status, 'an empty title is a 400').toBe(400);
      expect((empty.json as { issues: { path: unknown[] }[] }).issues.map((issue) => issue.path), 'the empty title is the issue').toEqual([['title']]);

      await send(app, 'POST', '/posts', { json: { title: 'ok' } });
      const badPatch = await send(app, 'PATCH', '/posts/1', { json: { title: 5 } });
      expect(badPatch.status, 'a title that is no string is a 400').toBe(400);
      expect((await send(app, 'GET', '/posts/1')).json, 'a failed update changes nothing').toMatchObject({ title: 'ok' });
    });

    it('answers 405 with Allow listing exactly the declared methods', async () => {
      const { app } = await blog();
      const collection = await send(app, 'PUT', '/posts');
      expect(collection.status, 'PUT /posts is a 405').toBe(405);
      expect(collection.headers.get('allow'), 'the collection allows GET and POST').toBe('GET, POST');
      const item = await send(app, 'POST', '/posts/1');
      expect(item.status, 'POST /posts/1 is a 405').toBe(405);
      expect(item.headers.get('allow'), 'an item allows GET, PATCH and DELETE').toBe('GET, PATCH, DELETE');
      expect(item.headers.get('content-type'), 'the 405 is problem+json').toBe('application/problem+json');
    });

    it('answers 404 for unknown paths', async () => {
      const { app } = await blog();
      const res = await send(app, 'GET', '/comments');
      expect(res.status, 'unknown path: 404').toBe(404);
      expect(res.json, 'a problem of type about:blank').toMatchObject({ type: 'about:blank', status: 404 });
    });
  });
}
