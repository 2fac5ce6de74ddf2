import type { PendingWebSocket } from '../../internal.js';
import type { FetchWebSockets } from '../fetch/fetch-web-sockets.js';

/** The server end of workerd's WebSocketPair, as the adapter uses it. */
interface WorkersSocket {
  accept(): void;
  send(data: string | Uint8Array): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'message' | 'close' | 'error', listener: (event: { data?: unknown; code?: number; reason?: string }) => void): void;
}

/** workerd's pair: [client, server]; the server end is accepted by the worker. */
type WorkersPair = { readonly 0: unknown; readonly 1: WorkersSocket };

/** A frame or a close waiting for the socket's own request context. */
type Outgoing = string | Uint8Array | { readonly code: number; readonly reason: string };

/**
 * Binds a workerd socket to the core. Workers let only the request that accepted a socket write
 * to it ("Cannot perform I/O on behalf of a different request"), so a topic published from
 * another request could not reach it directly: every write is queued and sent by a pump that
 * runs in the socket's own request context, woken by a promise made there. workerd cannot send
 * pings from script nor drop a socket without its handshake: `terminate` closes with 1001.
 */
function bindWorkersSocket(server: WorkersSocket, pending: PendingWebSocket): void {
  const queue: Outgoing[] = [];
  let wake: (() => void) | undefined;
  let closed = false;
  const push = (item: Outgoing) => {
    queue.push(item);
    wake?.();
  };
  const pump = async () => {
    while (!closed) {
      if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      for (const item of queue.splice(0)) {
        if (typeof item === 'string' || item instanceof Uint8Array) server.send(item);
        else server.close(item.code, item.reason);
      }
    }
  };
  const events = pending.open({
    send: push,
    close: (code, reason) => push({ code, reason }),
    terminate: () => push({ code: 1001, reason: 'Going away' }),
    // workerd does not tell how much is queued; the queue here is what the core can see.
    get bufferedAmount() {
      let bytes = 0;
      for (const item of queue) bytes += typeof item === 'string' ? item.length : item instanceof Uint8Array ? item.byteLength : 0;
      return bytes;
    },
  });
  server.addEventListener('message', (event) => {
    const data = event.data;
    events.message(typeof data === 'string' ? data : new Uint8Array(data as ArrayBuffer));
  });
  server.addEventListener('close', (event) => {
    closed = true;
    wake?.();
    events.closed(event.code ?? 1006, event.reason ?? '');
  });
  server.addEventListener('error', () => undefined);
  void pump().catch(() => undefined);
}

/**
 * WebSockets on Cloudflare Workers and workerd with `WebSocketPair`. Topics reach sockets accepted
 * by other requests of the same isolate (see bindWorkersSocket); sockets on other isolates are
 * reached only through a shared PubSub. workerd cannot send pings from script: a silent peer is
 * found by the platform, not by the route's idle timeout.
 *
 * @example
 * export default { fetch: toFetchHandler(app, { webSockets: workersWebSockets }) };
 */
export const workersWebSockets: FetchWebSockets = {
  upgrade(_request, _platform, pending, headers) {
    const Pair = (globalThis as { WebSocketPair?: new () => WorkersPair }).WebSocketPair;
    if (Pair === undefined) throw new Error('workersWebSockets runs on Workers (workerd) only.');
    const pair = new Pair();
    const server = pair[1];
    server.accept();
    bindWorkersSocket(server, pending);
    // The protocol the app chose goes in the 101 as given: workerd does not pick one itself.
    return new Response(null, { status: 101, webSocket: pair[0], headers: { ...headers } } as ResponseInit);
  },
};
