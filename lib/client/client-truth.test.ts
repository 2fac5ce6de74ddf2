import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createApp, defineController, defineModule, get, ws } from '../index.js';
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
    maybe: get('/maybe/:id', { params: z.object({ id: z.coerce.number().int() }), response: Stamp }, (ctx) => (ctx.params.id === 0 ? undefined : { id: ctx.params.id, createdAt: AT })),
    live: ws('/live', { send: z.object({ at: z.date() }) }, { open: (conn) => void conn.send({ at: AT }) }),
    counter: ws('/counters/:n', { params: z.object({ n: z.coerce.number().int() }), send: z.object({ n: z.number(), type: z.string() }) }, {
      open: (conn) => {
        expectTypeOf(conn.params).toEqualTypeOf<{ readonly n: number }>();
        void conn.send({ n: conn.params.n, type: typeof conn.params.n });
      },
    }),
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

  it('types data as possibly undefined where the handler may return undefined (a 204), and undefined arrives', async () => {
    const client = createClient(stamps, await inProcess());
    const answer = await client.maybe({ params: { id: 0 } });
    if (!answer.ok) throw new Error(`expected 204, got ${answer.status}`);
    expectTypeOf(answer.data).toEqualTypeOf<StampData | undefined>();
    expect([answer.status, answer.data]).toEqual([204, undefined]);
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

describe('the typed socket: params on the params schema\u2019s input side', () => {
  it('types the params as the schema takes them, and the connection sees the parsed value', async () => {
    const { serve } = await import('../node.js');
    const { default: WebSocket } = await import('ws');
    const server = await serve(await createApp(defineModule({ name: 'Stamps', controllers: [stamps] })), { port: 0 });
    try {
      const api = createFetchClient<StampsApi>({ baseUrl: server.url, WebSocket: WebSocket as unknown as typeof globalThis.WebSocket });
      type Input = Parameters<typeof api.socket<'/stamps/counters/:n'>>[1];
      expectTypeOf<Input['params']>().toEqualTypeOf<{ readonly n: string | number | boolean }>();
      const counter = api.socket('/stamps/counters/:n', { params: { n: 3 } });
      const first = new Promise<{ n: number; type: string }>((resolve) => counter.onMessage(resolve));
      expect(await first, 'conn.params.n should be the parsed number').toEqual({ n: 3, type: 'number' });
      counter.close();
      await counter.closed;
      const refused = api.socket('/stamps/counters/:n', { params: { n: 'x' } });
      await expect(refused.opened, 'a non-numeric n should refuse the upgrade').rejects.toThrow(/closed before it opened/);
    } finally {
      await server.close({ forceAfterMs: 500 });
    }
  });

  it('refuses the upgrade request of an invalid parameter with the 400 validation problem', async () => {
    const app = await createApp(defineModule({ name: 'Stamps', controllers: [stamps] }));
    const res = await app.request('/stamps/counters/x', { headers: { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' } });
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { detail: string; issues: { path: unknown[] }[] };
    expect([problem.detail, problem.issues.map((issue) => issue.path)]).toEqual(['Path parameters failed validation.', [['n']]]);
  });
});
