import type { WebSocketUpgrader } from '../../internal/web-sockets.js';
import { bindStandardWebSocket, type StandardServerSocket } from '../fetch/standard-web-socket.js';
import { queuedPort } from './queued-port.js';

/** workerd's pair: [client, server]; the server end is accepted by the worker. */
type WorkersPair = { readonly 0: unknown; readonly 1: StandardServerSocket & { accept(): void } };

/**
 * The WebSocket upgrader for Cloudflare Workers and workerd, with `WebSocketPair`. Every write
 * goes through a queue sent from the socket's own request context (see `queuedPort`), so topics
 * reach sockets accepted by other requests of the same isolate; sockets on other isolates are
 * reached only through a shared PubSub. workerd cannot send pings from script: a silent peer is
 * found by the platform, not by the route's idle timeout.
 *
 * @example
 * export default { fetch: toFetchHandler(app, { webSocketUpgrader: workersWebSocketUpgrader }) };
 */
export const workersWebSocketUpgrader: WebSocketUpgrader = {
  upgrade({ pending, headers }) {
    const Pair = (globalThis as { WebSocketPair?: new () => WorkersPair }).WebSocketPair;
    if (Pair === undefined) throw new Error('workersWebSocketUpgrader runs on Workers (workerd) only.');
    const pair = new Pair();
    const server = pair[1];
    server.accept();
    bindStandardWebSocket(server, pending, { open: true, port: queuedPort });
    // The protocol the app chose goes in the 101 as given: workerd does not pick one itself.
    return new Response(null, { status: 101, webSocket: pair[0], headers: { ...headers } } as ResponseInit);
  },
};
