import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, defineController, defineModule, get, post, silentLogger } from '../../index.js';
import { NoStore } from './no-store.js';

const Key = z.object({ id: z.string(), key: z.string() });

async function app() {
  const controller = defineController({
    name: 'Secrets',
    routes: () => ({
      plain: post('/plain', { status: 201, interceptors: [NoStore] }, () => ({ id: 'k1', key: 'tsk_secret' })),
      shaped: get('/shaped', { response: Key, interceptors: [NoStore] }, () => ({ id: 'k1', key: 'tsk_secret', internal: 'never shown' })),
      empty: post('/empty', { interceptors: [NoStore] }, () => undefined),
      raw: get('/raw', { interceptors: [NoStore] }, () => new Response('secret', { headers: { 'content-type': 'text/plain' } })),
      failing: get('/failing', { interceptors: [NoStore] }, () => {
        throw new Error('boom');
      }),
    }),
  });
  return createApp(defineModule({ name: 'Root', controllers: [controller] }), { logger: silentLogger });
}

const call = async (method: string, path: string) => (await app()).fetch(new Request(`http://localhost${path}`, { method }));

describe('NoStore', () => {
  it("adds Cache-Control: no-store and keeps the route's status and JSON body", async () => {
    const res = await call('POST', '/plain');
    expect(res.status, 'the route status was lost').toBe(201);
    expect(res.headers.get('cache-control'), 'no no-store').toBe('no-store');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ id: 'k1', key: 'tsk_secret' });
  });

  it("writes the value through the route's response schema (extra fields stay out)", async () => {
    const res = await call('GET', '/shaped');
    expect(await res.json(), 'the response schema was bypassed').toEqual({ id: 'k1', key: 'tsk_secret' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers undefined with 204 and the header', async () => {
    const res = await call('POST', '/empty');
    expect(res.status).toBe(204);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('adds the header to a Response the handler returns', async () => {
    const res = await call('GET', '/raw');
    expect(await res.text()).toBe('secret');
    expect(res.headers.get('cache-control'), 'a Response went out without no-store').toBe('no-store');
  });

  it('lets an error through to the ordinary problem answer', async () => {
    expect((await call('GET', '/failing')).status).toBe(500);
  });
});
