import type { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createApp, defineController, defineModule, type App, type RequestContext, type WebSocketConnection } from '../../lib/index.js';
import { serve, type NodeServer } from '../../lib/node.js';
import { createTestLogger } from '../support/test-logger.js';
import { openSocket, type SocketRecord } from './socket-client.js';

// What an idle connection keeps (issue 51): no timer of its own, not the upgrade request's Node
// objects, and the context still answering what it answered before.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

let server: NodeServer | undefined;
const clients: SocketRecord[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.ws.terminate();
  await server?.close({ forceAfterMs: 500 });
  server = undefined;
});

interface Seen {
  conn?: WebSocketConnection;
  context?: RequestContext;
}

async function start(seen: Seen): Promise<{ app: App; url: string }> {
  const live = defineController({
    name: 'LiveController',
    routes: ({ ws }) => ({
      live: ws('/live/:room', { query: z.object({ tab: z.string().default('main') }) }, {
        open: (conn) => {
          seen.conn = conn;
          seen.context = conn.context;
        },
        message: (conn, data) => void conn.send(data),
      }),
    }),
  });
  const app = await createApp(defineModule({ name: 'Live', controllers: [live] }), { logger: createTestLogger().logger });
  server = await serve(app, { port: 0 });
  return { app, url: server.url.replace('http://', 'ws://') };
}

/** Counts the timers started from the library's own files (the ws client of the test runs in this process too). */
function countLibraryTimers(): { readonly count: () => number; restore(): void } {
  let count = 0;
  const fromLibrary = (): void => {
    const stack = new Error().stack ?? '';
    if (/[/\\]lib[/\\](websocket|adapters|app)[/\\]/.test(stack)) count++;
  };
  const originalInterval = globalThis.setInterval;
  const originalTimeout = globalThis.setTimeout;
  const intervals = vi.spyOn(globalThis, 'setInterval').mockImplementation(((...args: Parameters<typeof setInterval>) => (fromLibrary(), originalInterval(...args))) as typeof setInterval);
  const timeouts = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((...args: Parameters<typeof setTimeout>) => (fromLibrary(), originalTimeout(...args))) as typeof setTimeout);
  return {
    count: () => count,
    restore() {
      intervals.mockRestore();
      timeouts.mockRestore();
    },
  };
}

describe('an idle WebSocket on Node holds only what its route uses', () => {
  it('holds no timer per connection: 40 idle sockets of one route share one idle timer', async () => {
    const { app, url } = await start({});
    clients.push(await openSocket(`${url}/live/a`));
    const timers = countLibraryTimers();
    try {
      for (let i = 0; i < 39; i++) clients.push(await openSocket(`${url}/live/a`));
      expect(app.webSockets.size).toBe(40);
      expect(timers.count(), 'timers the server started while 39 more sockets opened on a route already open').toBe(0);
    } finally {
      timers.restore();
    }
  });

  it('lets go of the upgrade request once the socket is open (the Node request object is collectable)', async () => {
    const seen: Seen = {};
    const { url } = await start(seen);
    let request: WeakRef<object> | undefined;
    server?.server.prependListener('upgrade', (req: object) => {
      request = new WeakRef(req);
    });
    const client = await openSocket(`${url}/live/a`);
    clients.push(client);
    client.ws.send('ping');
    expect(await client.next(), 'the socket still echoes').toBe('ping');
    for (let i = 0; i < 4; i++) {
      collect();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(seen.conn, 'the socket is open and its connection held').toBeDefined();
    expect(request?.deref(), 'the IncomingMessage of an open socket was collected').toBeUndefined();
  });

  it('registers no listener of its own per connection: the TCP socket keeps only ws\'s, the ws socket none', async () => {
    const { url } = await start({});
    let tcp: Socket | undefined;
    server?.server.prependListener('upgrade', (_req: unknown, socket: Socket) => {
      tcp = socket;
    });
    const client = await openSocket(`${url}/live/a`);
    clients.push(client);
    client.ws.send('ping');
    expect(await client.next(), 'the socket still echoes').toBe('ping');
    const socket = tcp as Socket;
    expect(socket.listenerCount('close'), "close listeners on the TCP socket of an open WebSocket (ws's own only: serve's went with the upgrade)").toBe(1);
    const key = Object.getOwnPropertySymbols(socket).find((symbol) => symbol.description === 'websocket');
    const ws = (socket as unknown as Record<symbol, EventEmitter>)[key as symbol];
    expect(ws?.eventNames(), 'events with listeners on the ws socket (its events reach the session without any)').toEqual([]);
  });

  it("keeps the context's answers after the open: headers, params, query, method, path, address", async () => {
    const seen: Seen = {};
    const { url } = await start(seen);
    clients.push(await openSocket(`${url}/live/lobby?tab=side`, { headers: { 'x-tab-id': 't-7' } }));
    const ctx = seen.context as RequestContext;
    expect(ctx.header('x-tab-id'), 'a request header read after the open').toBe('t-7');
    expect(ctx.params, 'the path parameters').toEqual({ room: 'lobby' });
    expect(ctx.query, 'the validated query').toEqual({ tab: 'side' });
    expect([ctx.method, ctx.path], 'the request line').toEqual(['GET', '/live/lobby']);
    expect(ctx.clientAddress, "the client's address").toBe('127.0.0.1');
    expect(ctx.request.headers.get('x-tab-id'), 'a web Request of the upgrade, built on demand').toBe('t-7');
  });

  it("aborts the context's signal when the socket closes, as the connection's", async () => {
    const seen: Seen = {};
    const { url } = await start(seen);
    const client = await openSocket(`${url}/live/a`);
    const signal = (seen.context as RequestContext).signal;
    expect(signal.aborted, 'open socket: not aborted').toBe(false);
    client.ws.close();
    await client.closed;
    const deadline = Date.now() + 2_000;
    while (!signal.aborted && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(signal.aborted, "the context's signal after the close").toBe(true);
    expect(seen.conn?.signal.aborted, "the connection's signal after the close").toBe(true);
  });
});
