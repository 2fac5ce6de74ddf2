import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createApp, defineController, defineModule, get, ws } from '../internal.js';
import { createClient, createFetchClient, type ApiOf } from './index.js';

// What a typed client says `data` is must be what arrives: each client is checked twice on the
// same route, by the compiler (the type of `data`) and at run time (what JSON delivered).
const Stamp = z.object({ id: z.number(), createdAt: z.date(), note: z.string().optional(), tags: z.set(z.string()).optional() });
const AT = new Date('2026-11-26T00:00:00.000Z');

const stamps = defineController({
  name: 'StampsController',
  prefix: '/stamps',
  routes: () => ({
    one: get('/:id', { params: z.object({ id: z.coerce.number().int() }), response: Stamp }, (ctx) => ({ id: ctx.params.id, createdAt: AT, note: undefined })),
    live: ws('/live', { send: z.object({ at: z.date() }) }, { open: (conn) => void conn.send({ at: AT }) }),
  }),
});
type StampsApi = ApiOf<[typeof stamps]>;
type StampData = { id: number; createdAt: string; note?: string; tags?: Record<string, never> };

const inProcess = async () => {
  const app = await createApp(defineModule({ name: 'Stamps', controllers: [stamps] }));
  return { baseUrl: 'http://stamps.test', fetch: (request: Request) => app.fetch(request) };
};

describe('createClient (named): data as JSON delivers it', () => {
  it('types a z.date() field as string, and a string arrives', async () => {
    const client = createClient(stamps, await inProcess());
    const answer = await client.one({ params: { id: 7 } });
    if (!answer.ok) throw new Error(`expected 200, got ${answer.status}`);
    expectTypeOf(answer.data).toEqualTypeOf<StampData>();
    // @ts-expect-error createdAt is a string on the wire, not a Date
    void (() => answer.data.createdAt.getTime());
    expect(typeof answer.data.createdAt, 'the type says string; something else arrived').toBe('string');
    expect(answer.data).toEqual({ id: 7, createdAt: AT.toISOString() });
  });

  it('takes the params schema\u2019s input side: z.coerce accepts a string, number or boolean', async () => {
    const client = createClient(stamps, await inProcess());
    expectTypeOf<Parameters<typeof client.one>[0]['params']>().toEqualTypeOf<{ readonly id: string | number | boolean }>();
    const fromString = await client.one({ params: { id: '8' } });
    expect(fromString.ok && fromString.data.id).toBe(8);
    const refused = await client.one({ params: { id: 'x' } });
    expect(refused.ok ? 'ok' : refused.problem.status, 'a non-numeric id should be the 400 problem').toBe(400);
  });
});

describe('createFetchClient: data as JSON delivers it', () => {
  it('types a z.date() field as string, and a string arrives', async () => {
    const api = createFetchClient<StampsApi>(await inProcess());
    const answer = await api.GET('/stamps/:id', { params: { id: 7 } });
    if (!answer.ok) throw new Error(`expected 200, got ${answer.status}`);
    expectTypeOf(answer.data).toEqualTypeOf<StampData>();
    // @ts-expect-error createdAt is a string on the wire, not a Date
    void (() => answer.data.createdAt.getTime());
    expect(typeof answer.data.createdAt, 'the type says string; something else arrived').toBe('string');
  });

  it('takes the params schema\u2019s input side', () => {
    const api = createFetchClient<StampsApi>('http://stamps.test');
    type Input = Parameters<typeof api.GET<'/stamps/:id'>>[1];
    expectTypeOf<Input['params']>().toEqualTypeOf<{ readonly id: string | number | boolean }>();
    expect(typeof api.GET).toBe('function');
  });
});

describe('the typed socket: messages as JSON delivers them', () => {
  it('types a z.date() field of the send schema as string, and a string arrives', async () => {
    const { serve } = await import('../node.js');
    const { default: WebSocket } = await import('ws');
    const server = await serve(await createApp(defineModule({ name: 'Stamps', controllers: [stamps] })), { port: 0 });
    try {
      const api = createFetchClient<StampsApi>({ baseUrl: server.url, WebSocket: WebSocket as unknown as typeof globalThis.WebSocket });
      const live = api.socket('/stamps/live');
      const first = new Promise<{ at: string }>((resolve) => live.onMessage(resolve));
      live.onMessage((message) => {
        expectTypeOf(message).toEqualTypeOf<{ at: string }>();
        // @ts-expect-error `at` is a string on the wire, not a Date
        void (() => message.at.getTime());
      });
      const message = await first;
      expect(typeof message.at, 'the type says string; something else arrived').toBe('string');
      expect(message.at).toBe(AT.toISOString());
      live.close();
      await live.closed;
    } finally {
      await server.close({ forceAfterMs: 500 });
    }
  });
});
