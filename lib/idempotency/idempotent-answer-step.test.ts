import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, createManualClock, defineController, defineModule, idempotent, InMemoryIdempotencyStore, post, type Answer, type App } from '../index.js';
import { incomingFromRequest, toResponse } from '../internal/request-path.js';

// idempotent() makes a route's answer with the route's own answer step: the same bytes and
// headers as the route without it, plus Idempotent-Replayed on a replay, and a plain answer
// stays plain (the Node adapter writes it without a web Response).
const Order = z.object({ id: z.string() });

async function ordersApp(): Promise<App> {
  const store = new InMemoryIdempotencyStore({ clock: createManualClock(Date.parse('2026-11-28T05:00:00Z')) });
  const guard = idempotent({ store, identify: () => 'alice' });
  const record = () => ({ id: '1', secret: 'kept' });
  const controller = defineController({
    name: 'Orders',
    routes: () => ({
      plain: post('/plain', { response: Order, serializeResponse: false, status: 201 }, record),
      idempotent: post('/idempotent', { response: Order, serializeResponse: false, status: 201, interceptors: [guard] }, record),
      serialized: post('/serialized', { response: Order, status: 201, interceptors: [guard] }, record),
      empty: post('/empty', { interceptors: [guard] }, () => undefined),
    }),
  });
  return createApp(defineModule({ name: 'M', controllers: [controller] }));
}

/** What app.handle replies with: the answer itself, so a test can see whether it is plain. */
function handled(app: App, path: string, key: string): Promise<Answer> {
  const request = new Request(`http://localhost${path}`, { method: 'POST', headers: { 'idempotency-key': key } });
  return new Promise((resolve) => app.handle(incomingFromRequest(request), resolve));
}

async function shown(answer: Answer): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const response = toResponse(answer);
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
}

describe('idempotent() answers with the route’s own answer step', () => {
  it('keeps what serializeResponse: false lets out, as the route without idempotent() does', async () => {
    const app = await ordersApp();
    const plain = await shown(await handled(app, '/plain', 'k1'));
    const first = await shown(await handled(app, '/idempotent', 'k1'));
    expect(plain.body, 'the route without idempotent()').toBe('{"id":"1","secret":"kept"}');
    expect(first, 'idempotent() changed the first answer of a serializeResponse: false route').toEqual(plain);
  });

  it('replays the first answer’s bytes and headers, plus Idempotent-Replayed', async () => {
    const app = await ordersApp();
    const first = await shown(await handled(app, '/idempotent', 'k2'));
    const replayed = await shown(await handled(app, '/idempotent', 'k2'));
    expect(replayed, 'the replay differs from the first answer by more than the marker').toEqual({ ...first, headers: { ...first.headers, 'idempotent-replayed': 'true' } });
  });

  it('still strips undeclared fields where the route serialises its response', async () => {
    const app = await ordersApp();
    expect((await shown(await handled(app, '/serialized', 'k3'))).body, 'the response schema did not write the answer').toBe('{"id":"1"}');
  });

  it('gives the Node adapter a plain answer, not a web Response, first and on replay', async () => {
    const app = await ordersApp();
    expect(await handled(app, '/idempotent', 'k4'), 'the first answer became a web Response').not.toBeInstanceOf(Response);
    expect(await handled(app, '/idempotent', 'k4'), 'the replay became a web Response').not.toBeInstanceOf(Response);
  });

  it('answers and replays 204 for undefined, as the route without it would', async () => {
    const app = await ordersApp();
    const first = await shown(await handled(app, '/empty', 'k5'));
    const replayed = await shown(await handled(app, '/empty', 'k5'));
    expect(first, 'the first 204').toEqual({ status: 204, headers: {}, body: '' });
    expect(replayed, 'the replayed 204').toEqual({ status: 204, headers: { 'idempotent-replayed': 'true' }, body: '' });
  });
});
