import { describe, expect, it } from 'vitest';
import { createApp, createManualClock } from '../../lib/index.js';
import { send } from '../../test/http-helpers.js';
import { createBlogModule } from './blog-module.js';

const T0 = Date.parse('2026-11-21T10:00:00.000Z');

async function blog() {
  const clock = createManualClock(T0);
  return { app: await createApp(createBlogModule({ clock })), clock };
}

describe('blog API (SPEC: Blog API)', () => {
  it('creates posts with counter ids as strings, ISO createdAt and body defaulting to ""', async () => {
    const { app, clock } = await blog();
    const first = await send(app, 'POST', '/posts', { json: { title: 'First' } });
    expect(first.status).toBe(201);
    expect(first.headers.get('content-type')).toBe('application/json');
    expect(first.json).toEqual({ id: '1', title: 'First', body: '', createdAt: '2026-11-21T10:00:00.000Z' });
    clock.advance(1500);
    const second = await send(app, 'POST', '/posts', { json: { title: 'Second', body: 'text' } });
    expect(second.json).toEqual({ id: '2', title: 'Second', body: 'text', createdAt: '2026-11-21T10:00:01.500Z' });
  });

  it('lists, gets, patches and deletes', async () => {
    const { app } = await blog();
    await send(app, 'POST', '/posts', { json: { title: 'A', body: 'a' } });
    await send(app, 'POST', '/posts', { json: { title: 'B' } });
    const list = await send(app, 'GET', '/posts');
    expect(list.status).toBe(200);
    expect((list.json as { id: string }[]).map((p) => p.id)).toEqual(['1', '2']);

    const one = await send(app, 'GET', '/posts/1');
    expect(one.json).toMatchObject({ id: '1', title: 'A', body: 'a' });

    const patched = await send(app, 'PATCH', '/posts/1', { json: { body: 'changed' } });
    expect(patched.status).toBe(200);
    expect(patched.json).toEqual({ ...(one.json as object), body: 'changed' });

    const removed = await send(app, 'DELETE', '/posts/1');
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect((await send(app, 'GET', '/posts/1')).status).toBe(404);
  });

  it('keeps absent fields, and never changes id or createdAt on update', async () => {
    const { app, clock } = await blog();
    const created = (await send(app, 'POST', '/posts', { json: { title: 'A', body: 'a' } })).json as Record<string, string>;
    clock.advance(60_000);
    const patched = await send(app, 'PATCH', '/posts/1', { json: { title: 'B', id: '99', createdAt: 'never' } });
    expect(patched.json).toEqual({ id: '1', title: 'B', body: 'a', createdAt: created.createdAt });
    const empty = await send(app, 'PATCH', '/posts/1', { json: {} });
    expect(empty.json).toEqual(patched.json);
  });

  it('answers 404 problem+json for an unknown id on get, update and delete', async () => {
    const { app } = await blog();
    for (const [method, json] of [['GET', undefined], ['PATCH', { title: 'x' }], ['DELETE', undefined]] as const) {
      const res = await send(app, method, '/posts/42', { json });
      expect(res.status, method).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(res.json).toMatchObject({ status: 404, title: 'Not Found' });
    }
  });

  it('answers 400 problem+json with the zod issues for invalid bodies', async () => {
    const { app } = await blog();
    const missing = await send(app, 'POST', '/posts', { json: { body: 'no title' } });
    expect(missing.status).toBe(400);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
    const issues = (missing.json as { issues: { path: unknown[]; code: string }[] }).issues;
    expect(issues).toEqual([expect.objectContaining({ path: ['title'], code: 'invalid_type' })]);

    const empty = await send(app, 'POST', '/posts', { json: { title: '' } });
    expect((empty.json as { issues: { code: string }[] }).issues[0]?.code).toBe('too_small');

    await send(app, 'POST', '/posts', { json: { title: 'ok' } });
    const badPatch = await send(app, 'PATCH', '/posts/1', { json: { title: 5 } });
    expect(badPatch.status).toBe(400);
    // A failed update changes nothing.
    expect((await send(app, 'GET', '/posts/1')).json).toMatchObject({ title: 'ok' });
  });

  it('answers 405 with Allow listing exactly the declared methods', async () => {
    const { app } = await blog();
    const collection = await send(app, 'PUT', '/posts');
    expect(collection.status).toBe(405);
    expect(collection.headers.get('allow')).toBe('GET, POST');
    const item = await send(app, 'POST', '/posts/1');
    expect(item.status).toBe(405);
    expect(item.headers.get('allow')).toBe('GET, PATCH, DELETE');
    expect(item.headers.get('content-type')).toBe('application/problem+json');
  });

  it('answers 404 for unknown paths', async () => {
    const { app } = await blog();
    const res = await send(app, 'GET', '/comments');
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ type: 'about:blank', status: 404 });
  });
});
