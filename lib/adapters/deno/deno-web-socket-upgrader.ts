import type { WebSocketUpgrader } from '../../internal/web-sockets.js';
import { bindStandardWebSocket, type StandardServerSocket } from '../fetch/standard-web-socket.js';

/** The slice of Deno's API used here, so that it type-checks without Deno's types. */
interface DenoUpgrade {
  upgradeWebSocket(request: Request, options: { protocol?: string; idleTimeout?: number }): { socket: StandardServerSocket; response: Response };
}

/**
 * The WebSocket upgrader for Deno, with `Deno.upgradeWebSocket`: Deno pings and drops a silent
 * peer after the route's `idleTimeoutSeconds` itself. `denoServer` uses it; give it to
 * `toFetchHandler` when calling `Deno.serve` yourself.
 *
 * @example
 * Deno.serve(toFetchHandler(app, { webSocketUpgrader: denoWebSocketUpgrader }));
 */
export const denoWebSocketUpgrader: WebSocketUpgrader = {
  upgrade({ pending, headers }, { request }) {
    const deno = (globalThis as { Deno?: DenoUpgrade }).Deno;
    if (deno === undefined) throw new Error('denoWebSocketUpgrader runs on Deno only.');
    // The chosen protocol is set as a header, not passed as `protocol`: Deno checks that option
    // against the offer split on ", " only, and refuses offers written "a,b" (as the ws package does).
    const { socket, response } = deno.upgradeWebSocket(request, { idleTimeout: pending.idleTimeoutSeconds });
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    bindStandardWebSocket(socket, pending, { open: false });
    return response;
  },
};
