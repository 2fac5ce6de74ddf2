import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { createApp, createManualClock, defineController, defineModule, idempotent, InMemoryIdempotencyStore, post } from '../index.js';

// The idempotent interceptor writes the answer it stores with the route's response writer: for a
// valibot schema (here with an asynchronous check), the same stripped text as the first answer.
describe('idempotent() on a route with a valibot response schema', () => {
  it('answers the first request and its replay with the schema output, the handler run once', async () => {
    const store = new InMemoryIdempotencyStore({ clock: createManualClock(Date.parse('2026-11-21T12:00:00Z')) });
    const Order = v.pipeAsync(v.object({ id: v.string(), item: v.string() }), v.checkAsync(async (order) => order.item !== '', 'empty item'));
    let runs = 0;
    const controller = defineController({
      name: 'Orders',
      interceptors: [idempotent({ store, identify: () => 'alice' })],
      routes: () => ({ create: post('/orders', { response: Order, status: 201 }, () => ({ id: `o${++runs}`, item: 'tea', secret: 'never sent' })) }),
    });
    const app = await createApp(defineModule({ name: 'M', controllers: [controller] }));
    const send = () => app.request('/orders', { method: 'POST', headers: { 'idempotency-key': 'k-1' } });
    const first = await send();
    const replay = await send();
    expect(first.status).toBe(201);
    const text = await first.text();
    expect(text).toBe('{"id":"o1","item":"tea"}');
    expect(await replay.text(), 'the replay differs from the first answer').toBe(text);
    expect(runs, 'the handler ran again for the replay').toBe(1);
  });
});
