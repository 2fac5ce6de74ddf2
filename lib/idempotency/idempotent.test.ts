import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConflictException,
  createApp,
  createManualClock,
  defineController,
  defineModule,
  IDEMPOTENCY_STORE,
  idempotent,
  InMemoryIdempotencyStore,
  post,
  silentLogger,
  type IdempotencyOptions,
  type RequestContext,
} from '../index.js';

const T0 = Date.parse('2026-11-21T12:00:00Z');
const Order = z.object({ id: z.string(), item: z.string() });
const CreateOrder = z.object({ item: z.string() });

/** Tests name the caller in a header; a real app reads what its guards established. */
const identify = (ctx: RequestContext): string | undefined => ctx.header('x-caller') ?? undefined;

/** A promise the test settles: holds a handler mid-run. */
function gate(): { readonly wait: Promise<void>; open(): void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

/** An app whose order routes are idempotent on an in-memory store with a manual clock; counts handler runs. */
async function ordersApp(options: Partial<IdempotencyOptions> = {}) {
  const clock = createManualClock(T0);
  const store = new InMemoryIdempotencyStore({ clock });
  const runs = { count: 0 };
  let slow = gate();
  let flaky = 0;
  const controller = defineController({
    name: 'OrdersController',
    interceptors: [idempotent({ store, identify, ttlSeconds: 60, lockSeconds: 10, maxAnswerBytes: 1024, ...options })],
    routes: () => ({
      create: post('/orders', { body: CreateOrder, response: Order, status: 201 }, (ctx) => {
        runs.count += 1;
        // `secret` is not in the response schema: stripped from the first answer and the replay alike.
        return { id: `o${runs.count}`, item: ctx.body.item, secret: 'never sent' };
      }),
      createForTenant: post('/tenants/:tenantId/orders', { body: CreateOrder, status: 201 }, (ctx) => {
        runs.count += 1;
        return { id: `o${runs.count}`, tenant: ctx.params.tenantId };
      }),
      located: post('/located', () => {
        runs.count += 1;
        return new Response(`made ${runs.count}`, { status: 201, headers: { 'content-type': 'text/plain', location: `/orders/o${runs.count}`, 'x-trace': `t${runs.count}` } });
      }),
      raw: post('/raw', async (ctx) => {
        runs.count += 1;
        const body = (await ctx.request.json()) as { item: string };
        return { id: `o${runs.count}`, item: body.item };
      }),
      slow: post('/slow', async () => {
        runs.count += 1;
        await slow.wait;
        return { id: `o${runs.count}` };
      }),
      flaky: post('/flaky', () => {
        runs.count += 1;
        flaky += 1;
        if (flaky === 1) throw new Error('the database went away mid-write');
        return { id: `o${runs.count}` };
      }),
      unavailable: post('/unavailable', () => {
        runs.count += 1;
        return new Response('busy', { status: 503 });
      }),
      conflict: post('/conflict', () => {
        runs.count += 1;
        throw new ConflictException(`Title taken (run ${runs.count})`);
      }),
      binary: post('/binary', () => {
        runs.count += 1;
        return new Response(new Uint8Array([0xff, 0xfe, 0x00, runs.count]), { status: 200, headers: { 'content-type': 'application/octet-stream' } });
      }),
      big: post('/big', () => {
        runs.count += 1;
        return { id: `o${runs.count}`, padding: 'x'.repeat(2048) };
      }),
    }),
  });
  const app = await createApp(defineModule({ name: 'OrdersModule', controllers: [controller] }), { logger: silentLogger });
  const send = (path: string, init: { key?: string; caller?: string; body?: unknown } = {}) =>
    app.request(path, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(init.key === undefined ? {} : { 'idempotency-key': init.key }),
        ...(init.caller === null ? {} : { 'x-caller': init.caller ?? 'alice' }),
      },
      body: JSON.stringify(init.body ?? { item: 'tea' }),
    });
  return { app, clock, store, runs, send, holdSlow: () => (slow = gate()), openSlow: () => slow.open() };
}

describe('idempotent(): a retry gets the first answer', () => {
  it('replays the first answer (status, body, content-type) with Idempotent-Replayed, and runs the handler once', async () => {
    const { send, runs } = await ordersApp();
    const first = await send('/orders', { key: '"k-1"' });
    const retry = await send('/orders', { key: '"k-1"' });
    expect([first.status, await first.json(), first.headers.get('idempotent-replayed')]).toEqual([201, { id: 'o1', item: 'tea' }, null]);
    expect([retry.status, await retry.json(), retry.headers.get('content-type'), retry.headers.get('idempotent-replayed')]).toEqual([201, { id: 'o1', item: 'tea' }, 'application/json', 'true']);
    expect(runs.count, 'the handler ran once').toBe(1);
  });

  it('keeps the headers that describe the answer (location, content-type) and not the others', async () => {
    const { send } = await ordersApp();
    const first = await send('/located', { key: '"k-1"' });
    const retry = await send('/located', { key: '"k-1"' });
    expect([await first.text(), first.headers.get('x-trace')]).toEqual(['made 1', 't1']);
    expect([retry.status, await retry.text(), retry.headers.get('location'), retry.headers.get('content-type'), retry.headers.get('x-trace')]).toEqual([201, 'made 1', '/orders/o1', 'text/plain', null]);
  });

  it('replays a body that is not UTF-8 byte for byte', async () => {
    const { send } = await ordersApp();
    await send('/binary', { key: '"k-1"' });
    const retry = await send('/binary', { key: '"k-1"' });
    expect([...new Uint8Array(await retry.arrayBuffer())]).toEqual([0xff, 0xfe, 0x00, 1]);
  });

  it('replays an HttpException the handler threw (a 4xx is an outcome), marked as a replay', async () => {
    const { send, runs } = await ordersApp();
    const first = await send('/conflict', { key: '"k-1"' });
    const retry = await send('/conflict', { key: '"k-1"' });
    const [firstBody, retryBody] = [(await first.json()) as { detail: string }, (await retry.json()) as { detail: string }];
    expect([retry.status, retryBody.detail, retry.headers.get('idempotent-replayed')]).toEqual([409, firstBody.detail, 'true']);
    expect(runs.count, 'the handler ran once').toBe(1);
  });

  it('takes a bare (unquoted) key as the same key as its quoted form', async () => {
    const { send, runs } = await ordersApp();
    await send('/orders', { key: '"8e03978e-40d5-43e8-bc93-6894a57f9324"' });
    const retry = await send('/orders', { key: '8e03978e-40d5-43e8-bc93-6894a57f9324' });
    expect([retry.headers.get('idempotent-replayed'), runs.count]).toEqual(['true', 1]);
  });

  it('fingerprints the raw body on a route without a body schema, and the handler still reads it', async () => {
    const { send, runs } = await ordersApp();
    const first = await send('/raw', { key: '"k-1"', body: { item: 'tea' } });
    const retry = await send('/raw', { key: '"k-1"', body: { item: 'tea' } });
    const reused = await send('/raw', { key: '"k-1"', body: { item: 'coffee' } });
    expect([await first.json(), await retry.json(), reused.status, runs.count]).toEqual([{ id: 'o1', item: 'tea' }, { id: 'o1', item: 'tea' }, 422, 1]);
  });
});

describe('idempotent(): what is not a retry', () => {
  it('answers 409 with Retry-After to the same key while the first request still runs', async () => {
    const { send, runs, openSlow } = await ordersApp();
    const first = send('/slow', { key: '"k-1"' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const duplicate = await send('/slow', { key: '"k-1"' });
    openSlow();
    expect([duplicate.status, duplicate.headers.get('retry-after'), duplicate.headers.get('content-type')]).toEqual([409, '1', 'application/problem+json']);
    expect((await first).status).toBe(200);
    expect(runs.count, 'the duplicate did not run').toBe(1);
  });

  it('answers 422 to the same key with another body', async () => {
    const { send, runs } = await ordersApp();
    await send('/orders', { key: '"k-1"', body: { item: 'tea' } });
    const reused = await send('/orders', { key: '"k-1"', body: { item: 'coffee' } });
    expect([reused.status, reused.headers.get('content-type'), runs.count]).toEqual([422, 'application/problem+json', 1]);
  });

  it('answers 422 to the same key on the same route template with other path parameters', async () => {
    const { send, runs } = await ordersApp();
    await send('/tenants/acme/orders', { key: '"k-1"' });
    const other = await send('/tenants/globex/orders', { key: '"k-1"' });
    expect([other.status, runs.count]).toEqual([422, 1]);
  });

  it('keeps callers apart: the same key from another caller runs again', async () => {
    const { send, runs } = await ordersApp();
    const alice = await send('/orders', { key: '"k-1"', caller: 'alice' });
    const bob = await send('/orders', { key: '"k-1"', caller: 'bob' });
    expect([await alice.json(), await bob.json(), bob.headers.get('idempotent-replayed'), runs.count]).toEqual([{ id: 'o1', item: 'tea' }, { id: 'o2', item: 'tea' }, null, 2]);
  });

  it('keeps routes apart: the same key on another route runs there', async () => {
    const { send, runs } = await ordersApp();
    await send('/orders', { key: '"k-1"' });
    const other = await send('/raw', { key: '"k-1"' });
    expect([other.status, other.headers.get('idempotent-replayed'), runs.count]).toEqual([200, null, 2]);
  });
});

describe('idempotent(): how long', () => {
  it('replays until the TTL has passed, then runs again', async () => {
    const { send, runs, clock } = await ordersApp();
    await send('/orders', { key: '"k-1"' });
    clock.advance(59_999);
    expect((await send('/orders', { key: '"k-1"' })).headers.get('idempotent-replayed'), 'within the TTL').toBe('true');
    clock.advance(1);
    const after = await send('/orders', { key: '"k-1"' });
    expect([after.headers.get('idempotent-replayed'), await after.json(), runs.count]).toEqual([null, { id: 'o2', item: 'tea' }, 2]);
  });

  it('frees a claim whose request never answered after the lock time, not the TTL', async () => {
    const { send, runs, clock } = await ordersApp();
    void send('/slow', { key: '"k-1"' }); // its instance "died": it never answers
    await new Promise((resolve) => setTimeout(resolve, 10));
    clock.advance(9_999);
    expect((await send('/slow', { key: '"k-1"' })).status, 'still locked').toBe(409);
    clock.advance(1);
    void send('/slow', { key: '"k-1"' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(runs.count, 'the retry after the lock ran').toBe(2);
  });
});

describe('idempotent(): what is not stored', () => {
  it('releases the key when the handler fails (500): the retry runs again', async () => {
    const { send, runs } = await ordersApp();
    const failed = await send('/flaky', { key: '"k-1"' });
    const retry = await send('/flaky', { key: '"k-1"' });
    expect([failed.status, retry.status, retry.headers.get('idempotent-replayed'), runs.count]).toEqual([500, 200, null, 2]);
  });

  it('releases the key on a 5xx answer the handler returned', async () => {
    const { send, runs } = await ordersApp();
    await send('/unavailable', { key: '"k-1"' });
    const retry = await send('/unavailable', { key: '"k-1"' });
    expect([retry.status, retry.headers.get('idempotent-replayed'), runs.count]).toEqual([503, null, 2]);
  });

  it('sends an answer over maxAnswerBytes whole and does not store it', async () => {
    const { send, runs } = await ordersApp();
    const first = await send('/big', { key: '"k-1"' });
    const retry = await send('/big', { key: '"k-1"' });
    expect([((await first.json()) as { padding: string }).padding.length, retry.headers.get('idempotent-replayed'), runs.count]).toEqual([2048, null, 2]);
  });
});

describe('idempotent(): the header', () => {
  it('runs a request without a key as usual, every time', async () => {
    const { send, runs } = await ordersApp();
    await send('/orders');
    const again = await send('/orders');
    expect([again.status, runs.count]).toEqual([201, 2]);
  });

  it('answers 400 to a request without a key when the route requires one', async () => {
    const { send, runs } = await ordersApp({ required: true });
    const res = await send('/orders');
    expect([res.status, ((await res.json()) as { detail: string }).detail, runs.count]).toEqual([400, expect.stringContaining('Idempotency-Key'), 0]);
  });

  it.each([
    ['empty', ''],
    ['an empty quoted string', '""'],
    ['longer than 255 characters', `"${'k'.repeat(256)}"`],
    ['sent twice (joined by a comma)', '"a", "b"'],
    ['an unterminated quoted string', '"abc'],
    ['unquoted with a space', 'a b'],
  ])('answers 400 to a malformed key: %s', async (_why, key) => {
    const { send, runs } = await ordersApp();
    const res = await send('/orders', { key });
    expect([res.status, runs.count]).toEqual([400, 0]);
  });

  it('accepts a key of exactly 255 characters', async () => {
    const { send } = await ordersApp();
    expect((await send('/orders', { key: `"${'k'.repeat(255)}"` })).status).toBe(201);
  });

  it('fails closed (500, handler not run) when identify gives no caller', async () => {
    const { app, runs } = await ordersApp();
    const res = await app.request('/orders', { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': '"k-1"' }, body: '{"item":"tea"}' });
    expect([res.status, runs.count]).toEqual([500, 0]);
  });
});

describe('idempotent(): wiring', () => {
  it('takes its store from IDEMPOTENCY_STORE when given none', async () => {
    const store = new InMemoryIdempotencyStore();
    let runs = 0;
    const controller = defineController({
      name: 'C',
      routes: () => ({ create: post('/things', { interceptors: [idempotent({ identify: () => 'anyone' })] }, () => ({ run: ++runs })) }),
    });
    const app = await createApp(defineModule({ name: 'M', providers: [{ provide: IDEMPOTENCY_STORE, useValue: store }], controllers: [controller] }), { logger: silentLogger });
    const send = () => app.request('/things', { method: 'POST', headers: { 'idempotency-key': '"k"' } });
    await send();
    const retry = await send();
    expect([await retry.json(), retry.headers.get('idempotent-replayed'), store.size]).toEqual([{ run: 1 }, 'true', 1]);
  });

  it('refuses options it cannot honour when the route is defined', () => {
    expect(() => idempotent({ identify, ttlSeconds: 0 }), 'a TTL of 0').toThrow(RangeError);
    expect(() => idempotent({ identify, keepHeaders: ['Set-Cookie'] }), 'set-cookie kept').toThrow(RangeError);
  });
});

describe('idempotent(): what the store sees', () => {
  /** An in-memory store that keeps a copy of every answer it is given, and can have one tampered with. */
  class WatchedStore extends InMemoryIdempotencyStore {
    readonly answers: string[] = [];
    tamper = false;
    override async complete(id: string, token: string, answer: string, ttlMs: number): Promise<boolean> {
      this.answers.push(answer);
      return super.complete(id, token, this.tamper ? `${answer.slice(0, -2)}AA` : answer, ttlMs);
    }
  }

  async function secretsApp(store: WatchedStore) {
    const controller = defineController({
      name: 'KeysController',
      routes: () => ({ create: post('/keys', { status: 201, interceptors: [idempotent({ store, identify: () => 'alice' })] }, () => ({ secret: 'tk_live_s3cr3t' })) }),
    });
    const app = await createApp(defineModule({ name: 'KeysModule', controllers: [controller] }), { logger: silentLogger });
    return () => app.request('/keys', { method: 'POST', headers: { 'idempotency-key': '"9f1c2e34-0b7a-4c1d-8e2f-5a6b7c8d9e0f"' } });
  }

  it('keeps the answer sealed: the store never holds the body in plain', async () => {
    const store = new WatchedStore();
    const send = await secretsApp(store);
    await send();
    const retry = await send();
    expect(await retry.json(), 'the replay still carries it').toEqual({ secret: 'tk_live_s3cr3t' });
    expect(store.answers, 'one answer stored').toHaveLength(1);
    expect(store.answers[0], 'sealed, not plain').not.toContain('s3cr3t');
  });

  it('answers 500, not a guess, when a stored answer was tampered with', async () => {
    const store = new WatchedStore();
    store.tamper = true;
    const send = await secretsApp(store);
    await send();
    expect((await send()).status).toBe(500);
  });
});
