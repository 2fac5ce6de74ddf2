import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { App } from '../../lib/index.js';
import { cors, requestId } from '../../lib/middleware/index.js';
import { serve, type NodeServer } from '../../lib/node.js';
import { createTestLogger } from '../support/test-logger.js';
import { createChatApp, type ChatProbes } from './chat-app.js';
import { closeCodeIn, openSocket, rawWebSocket } from './socket-client.js';

let server: NodeServer | undefined;
let app: App | undefined;
let probes: ChatProbes;

async function start(options: Parameters<typeof createChatApp>[1] = {}, idleTimeoutSeconds?: number): Promise<string> {
  probes = { closes: [], opened: [] };
  app = await createChatApp(probes, { logger: createTestLogger().logger, ...options }, idleTimeoutSeconds);
  server = await serve(app, { port: 0 });
  return server.url.replace('http://', 'ws://');
}

afterEach(async () => {
  await server?.close({ forceAfterMs: 500 });
  server = undefined;
});

const until = async (check: () => boolean, what: string, ms = 3_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('WebSocket routes on Node: the upgrade is an ordinary request first', () => {
  it('opens a guarded route, greets with the verified user and the typed query', async () => {
    const url = await start();
    const client = await openSocket(`${url}/rooms/lobby`, { headers: { 'x-user': 'ada' } });
    expect(JSON.parse(String(await client.next())), 'the greeting names the guard-verified user').toEqual({ room: 'lobby', from: 'server', text: 'welcome ada' });
    client.ws.close();
  });

  it('refuses an upgrade the guard refuses with its 401 problem, opening no socket', async () => {
    const url = await start();
    const refused = await openSocket(`${url}/rooms/lobby`).catch((error: { status: number; body: string }) => error);
    expect(refused).toMatchObject({ status: 401 });
    expect(JSON.parse((refused as { body: string }).body)).toMatchObject({ status: 401, detail: 'Who are you?' });
    expect(probes.opened, 'no socket was opened').toEqual([]);
  });

  it('refuses an upgrade whose query fails validation with 400', async () => {
    const url = await start();
    const refused = await openSocket(`${url}/rooms/lobby?greet=maybe`, { headers: { 'x-user': 'ada' } }).catch((error: { status: number }) => error);
    expect(refused).toMatchObject({ status: 400 });
  });

  it('answers a plain GET to a WebSocket route with 426 and the Upgrade header', async () => {
    await start();
    const res = await fetch(`${server?.url}/echo`);
    expect(res.status).toBe(426);
    expect(res.headers.get('upgrade')).toBe('websocket');
    expect(res.headers.get('content-type')).toBe('application/problem+json');
  });

  it('answers an upgrade through app.fetch (no adapter to switch protocols) with 501', async () => {
    await start();
    const res = await app?.request('/echo', { headers: { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' } });
    expect(res?.status).toBe(501);
  });

  it('refuses a cross-site origin with 403 and lets the same origin and non-browser clients in', async () => {
    const url = await start();
    const refused = await openSocket(`${url}/echo`, { headers: { origin: 'https://evil.example' } }).catch((error: { status: number }) => error);
    expect(refused, 'another site is refused').toMatchObject({ status: 403 });
    const host = new URL(url).host;
    const same = await openSocket(`${url}/echo`, { headers: { origin: `http://${host}` } });
    same.ws.close();
    const none = await openSocket(`${url}/echo`);
    none.ws.close();
  });

  it("checks the origin against the app's cors() origins by default", async () => {
    const url = await start({ middleware: [cors({ origin: ['https://app.example'] })] });
    const allowed = await openSocket(`${url}/echo`, { headers: { origin: 'https://app.example' } });
    allowed.ws.close();
    const refused = await openSocket(`${url}/echo`, { headers: { origin: 'https://evil.example' } }).catch((error: { status: number }) => error);
    expect(refused).toMatchObject({ status: 403 });
  });

  it("sends the middleware's headers with the 101 (a request id)", async () => {
    const url = await start({ middleware: [requestId()] });
    // ws shows the 101's headers on its 'upgrade' event.
    const probe = new WebSocket(`${url}/echo`);
    const headers = await new Promise<Record<string, unknown>>((resolve) => probe.once('upgrade', (res) => resolve(res.headers)));
    probe.once('open', () => probe.close());
    expect(headers['x-request-id'], 'the request id middleware ran on the upgrade').toMatch(/.+/);
  });

  it('chooses the tessera subprotocol and never echoes a bearer entry', async () => {
    const url = await start();
    const client = await openSocket(`${url}/echo`, { protocols: ['tessera', 'tessera.bearer.secret-token'] });
    expect(client.ws.protocol).toBe('tessera');
    client.ws.close();
  });
});

describe('WebSocket messages on Node', () => {
  it('delivers validated messages to the handler and publishes them to the room', async () => {
    const url = await start();
    const ada = await openSocket(`${url}/rooms/r1?greet=no`, { headers: { 'x-user': 'ada' } });
    const bob = await openSocket(`${url}/rooms/r1?greet=no`, { headers: { 'x-user': 'bob' } });
    await until(() => probes.opened.length === 2, 'both sockets open');
    ada.ws.send(JSON.stringify({ text: 'hello' }));
    expect(JSON.parse(String(await bob.next())), 'bob hears ada').toEqual({ room: 'r1', from: 'ada', text: 'hello' });
    expect(JSON.parse(String(await ada.next())), 'ada hears herself').toEqual({ room: 'r1', from: 'ada', text: 'hello' });
    ada.ws.close();
    bob.ws.close();
  });

  it('publishes from outside a socket with app.webSockets.publish', async () => {
    const url = await start();
    const ada = await openSocket(`${url}/rooms/r2?greet=no`, { headers: { 'x-user': 'ada' } });
    await until(() => probes.opened.length === 1, 'socket open');
    await new Promise((r) => setTimeout(r, 20)); // the subscribe in open() is async
    await app?.webSockets.publish('room:r2', { room: 'r2', from: 'job', text: 'tick' });
    expect(JSON.parse(String(await ada.next()))).toEqual({ room: 'r2', from: 'job', text: 'tick' });
    ada.ws.close();
  });

  it('closes with 1007 on a message that fails the schema, before the handler', async () => {
    const url = await start();
    const client = await openSocket(`${url}/rooms/r3?greet=no`, { headers: { 'x-user': 'ada' } });
    client.ws.send(JSON.stringify({ text: 42 }));
    expect((await client.closed).code).toBe(1007);
  });

  it('closes with 1007 on text that is not JSON', async () => {
    const url = await start();
    const client = await openSocket(`${url}/rooms/r3?greet=no`, { headers: { 'x-user': 'ada' } });
    client.ws.send('not json');
    expect((await client.closed).code).toBe(1007);
  });

  it("answers an invalid message with an error message and stays open when the route says 'reply'", async () => {
    const url = await start();
    const client = await openSocket(`${url}/replying`);
    client.ws.send(JSON.stringify({ text: 1 }));
    const error = JSON.parse(String(await client.next())) as { error: { status: number; issues: unknown[] } };
    expect(error.error.status).toBe(400);
    expect(error.error.issues.length).toBeGreaterThan(0);
    client.ws.send(JSON.stringify({ text: 'fine' }));
    expect(JSON.parse(String(await client.next()))).toEqual({ ok: 'fine' });
    client.ws.close();
  });

  it('hands binary messages over as bytes where the route allows them', async () => {
    const url = await start();
    const client = await openSocket(`${url}/echo`);
    client.ws.send(Buffer.from([1, 2, 3, 255]));
    expect(Array.from((await client.next()) as Uint8Array)).toEqual([1, 2, 3, 255]);
    client.ws.close();
  });

  it('closes with 1003 on a binary message to a route that takes text only', async () => {
    const url = await start();
    const client = await openSocket(`${url}/replying`);
    client.ws.send(Buffer.from([1, 2, 3]));
    expect((await client.closed).code).toBe(1003);
  });

  it('closes with 1009 on a message over maxMessageBytes', async () => {
    const url = await start();
    const client = await openSocket(`${url}/echo`);
    client.ws.send('z'.repeat(1025));
    expect((await client.closed).code).toBe(1009);
  });

  it('reassembles a fragmented message', async () => {
    const url = await start();
    const raw = await rawWebSocket(Number(new URL(url).port), '/echo');
    raw.frame(0x1, Buffer.from('hel'), false);
    raw.frame(0x0, Buffer.from('lo'), false);
    raw.frame(0x0, Buffer.from(' world'), true);
    await until(() => Buffer.concat(raw.received).includes('hello world'), 'the echo of the joined message');
    raw.socket.destroy();
  });

  it('closes with 1007 on a text frame that is not UTF-8', async () => {
    const url = await start();
    const raw = await rawWebSocket(Number(new URL(url).port), '/echo');
    raw.frame(0x1, Buffer.from([0x68, 0xff, 0xfe]));
    await until(() => closeCodeIn(raw.received) !== undefined, 'a close frame');
    expect(closeCodeIn(raw.received)).toBe(1007);
    raw.socket.destroy();
  });

  it('closes with 1011 when a handler throws', async () => {
    const url = await start();
    const client = await openSocket(`${url}/broken`);
    client.ws.send('boom');
    expect((await client.closed).code).toBe(1011);
  });
});

describe('WebSocket connections on Node: dead peers, slow readers, shutdown', () => {
  it('reports 1006 to the close handler when a client vanishes without a close frame', async () => {
    const url = await start();
    const raw = await rawWebSocket(Number(new URL(url).port), '/echo');
    raw.socket.destroy();
    await until(() => probes.closes.length === 1, 'the close handler');
    expect(probes.closes[0]?.code).toBe(1006);
  });

  it('drops a connection that stops answering pings within the idle timeout', async () => {
    const url = await start({}, 0.4);
    // A raw client never answers the server's pings.
    const raw = await rawWebSocket(Number(new URL(url).port), '/echo');
    const started = Date.now();
    await raw.closed;
    const took = Date.now() - started;
    expect(took, 'dropped after the idle timeout, not before').toBeGreaterThanOrEqual(350);
    expect(took, 'dropped within 1.25 x the idle timeout (plus scheduling)').toBeLessThan(1_000);
    await until(() => probes.closes.length === 1, 'the close handler');
  });

  it('keeps a connection that answers pings past the idle timeout', async () => {
    const url = await start({}, 0.3);
    const client = await openSocket(`${url}/echo`); // ws answers pings by itself
    await new Promise((r) => setTimeout(r, 900));
    expect(client.ws.readyState, 'still open after 3 idle timeouts').toBe(client.ws.OPEN);
    client.ws.close();
  });

  it('closes a client that stops reading once the send queue passes its limit, memory bounded', async () => {
    const url = await start();
    const client = await openSocket(`${url}/flood`);
    // Stop reading: the kernel buffers fill, then the server's queue grows.
    (client.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const rss = process.memoryUsage().rss;
    await until(() => probes.closes.length === 1, 'the flood to be stopped', 10_000);
    expect(probes.closes[0]?.code === 1008 || probes.closes[0]?.code === 1006, `closed by the send-queue policy (got ${probes.closes[0]?.code})`).toBe(true);
    expect(process.memoryUsage().rss - rss, 'the queue did not grow without bound').toBeLessThan(64 * 1024 * 1024);
  });

  it('lets a sender that respects backpressure deliver everything to a slow reader', async () => {
    const url = await start();
    const client = await openSocket(`${url}/polite`);
    const socket = (client.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    socket.pause();
    await new Promise((r) => setTimeout(r, 300));
    socket.resume();
    await until(() => client.messages.at(-1) === 'done', 'the last message', 10_000);
    expect(client.messages.length, 'all 256 chunks and done arrived').toBe(257);
    client.ws.close();
  });

  it('sends 1001 to every open socket on close and resolves once none is open', async () => {
    const url = await start();
    const a = await openSocket(`${url}/echo`);
    const b = await openSocket(`${url}/echo`);
    await server?.close();
    server = undefined;
    expect((await a.closed).code).toBe(1001);
    expect((await b.closed).code).toBe(1001);
    expect(app?.webSockets.size).toBe(0);
  });

  it('drops a socket that does not answer 1001 within the grace', async () => {
    const url = await start({ webSocketCloseGraceMs: 200 });
    const raw = await rawWebSocket(Number(new URL(url).port), '/echo');
    const started = Date.now();
    await server?.close();
    server = undefined;
    await raw.closed;
    expect(closeCodeIn(raw.received), 'the 1001 was sent first').toBe(1001);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  // Deprecated spelling kept until 0.3 (CHANGELOG.md): without it the default grace (5 s) applies.
  it("takes the grace from createApp's old option webSockets.closeGraceMs too", async () => {
    const url = await start({ webSockets: { closeGraceMs: 200 } });
    const raw = await rawWebSocket(Number(new URL(url).port), '/echo');
    const started = Date.now();
    await server?.close();
    server = undefined;
    await raw.closed;
    expect(Date.now() - started, 'dropped after the 200 ms grace, not the 5 s default').toBeLessThan(2_000);
  });
});
