import { afterEach, describe, expect, it } from 'vitest';
import { createApp, defineController, defineModule, get, ws, type App, type Middleware } from '../../lib/index.js';
import { incomingFromRequest } from '../../lib/internal/request-path.js';
import { settleUpgrade, type AcceptedUpgrade } from '../../lib/internal/web-sockets.js';
import { serve, type NodeServer } from '../../lib/node.js';
import { openSocket } from './socket-client.js';

// The one rule for a 101 (lib/websocket/upgrade-answer.ts), through the app's own path: an
// upgrade request to a WebSocket route gets the hub's 101 with its session waiting.

const UPGRADE_HEADERS = { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' };

/** A middleware's bare 101 for /stray: no WebSocket route accepted anything. */
const strayUpgrade: Middleware = (ctx, next) => (ctx.path === '/stray' ? { status: 101, headers: {}, body: null } : next());

async function socketApp(): Promise<App> {
  const controller = defineController({
    name: 'Sockets',
    routes: () => ({
      echo: ws('/echo', {}, { message: (conn, data) => void conn.send(data) }),
      plain: get('/plain', () => ({ ok: true })),
    }),
  });
  return createApp(defineModule({ name: 'Sockets', controllers: [controller] }), {
    middleware: [strayUpgrade, (ctx, next) => next().then((answer) => (ctx.path === '/echo' && !(answer instanceof Response) ? { ...answer, headers: { ...answer.headers, 'x-seen': 'yes' } } : answer))],
  });
}

/** The app's answer to a request, before any adapter settles it. */
function answerOf(app: App, request: Request) {
  const incoming = incomingFromRequest(request);
  return new Promise<{ incoming: typeof incoming; answer: Parameters<Parameters<App['handle']>[1]>[0] }>((resolve) => app.handle(incoming, (answer) => resolve({ incoming, answer })));
}

describe('settleUpgrade: one rule for a 101 on every runtime', () => {
  it('returns any other answer as it is, for the adapter to write', async () => {
    const app = await socketApp();
    const { incoming, answer } = await answerOf(app, new Request('http://localhost/plain'));
    expect(settleUpgrade(incoming, answer, () => 'completed'), 'the very answer the app gave').toBe(answer);
  });

  it('hands an accepted upgrade to the completer, with the headers middleware added to the 101', async () => {
    const app = await socketApp();
    const { incoming, answer } = await answerOf(app, new Request('http://localhost/echo', { headers: UPGRADE_HEADERS }));
    let seen: AcceptedUpgrade | undefined;
    const settled = settleUpgrade(incoming, answer, (accepted) => {
      seen = accepted;
      return 'completed';
    });
    expect(settled).toBe('completed');
    expect(seen?.headers, "the middleware's header reaches the runtime's 101").toMatchObject({ 'x-seen': 'yes' });
    expect(typeof seen?.pending.open, 'the session waits for its port').toBe('function');
  });

  it('refuses with 501 an accepted upgrade that nothing completes, and gives it out once only', async () => {
    const app = await socketApp();
    const { incoming, answer } = await answerOf(app, new Request('http://localhost/echo', { headers: UPGRADE_HEADERS }));
    expect(settleUpgrade(incoming, answer), 'no completer: 501').toMatchObject({ status: 501 });
    expect(settleUpgrade(incoming, answer, () => 'completed'), 'the upgrade was taken by the first settle').toMatchObject({ status: 501 });
  });

  it('refuses with 501 a 101 that no WebSocket route accepted, even with a completer at hand', async () => {
    const app = await socketApp();
    const { incoming, answer } = await answerOf(app, new Request('http://localhost/stray', { headers: UPGRADE_HEADERS }));
    const settled = settleUpgrade(incoming, answer, () => 'completed');
    expect(settled).toMatchObject({ status: 501, headers: { 'content-type': 'application/problem+json' } });
  });
});

describe('the same 501 from every way in', () => {
  let server: NodeServer | undefined;
  afterEach(async () => {
    await server?.close({ forceAfterMs: 200 });
    server = undefined;
  });

  it('app.fetch answers an upgrade to a WebSocket route 501 (nothing there can switch protocols)', async () => {
    const app = await socketApp();
    const res = await app.fetch(new Request('http://localhost/echo', { headers: UPGRADE_HEADERS }));
    expect(res.status).toBe(501);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
  });

  it('Node answers a stray 101 with 501, on an upgrade request and on a plain one', async () => {
    server = await serve(await socketApp(), { port: 0 });
    const refused = await openSocket(`${server.url.replace('http', 'ws')}/stray`).catch((error: { status?: number; headers?: Record<string, string> }) => error);
    expect(refused, 'the upgrade request is refused 501').toMatchObject({ status: 501, headers: { 'content-type': 'application/problem+json' } });
    const plain = await fetch(`${server.url}/stray`);
    expect(plain.status, 'a 101 is never written on the request path').toBe(501);
  });

  it('Node still completes an accepted upgrade', async () => {
    server = await serve(await socketApp(), { port: 0 });
    const socket = await openSocket(`${server.url.replace('http', 'ws')}/echo`);
    socket.ws.send('ping');
    expect(await socket.next()).toBe('ping');
    socket.ws.close();
  });
});
