import type { PendingWebSocket, WebSocketUpgrader } from '../../internal.js';
import { takeWebSocketUpgrade } from '../../internal.js';

/**
 * How one fetch runtime completes a WebSocket upgrade the app accepted: `bunWebSockets()`,
 * `denoWebSockets`, `workersWebSockets`, given to `toFetchHandler(app, { webSockets })`. It
 * returns the Response the runtime expects from the fetch handler (its 101).
 *
 * @example
 * Deno.serve(toFetchHandler(app, { webSockets: denoWebSockets }));
 */
export interface FetchWebSockets {
  upgrade(request: Request, platform: unknown, pending: PendingWebSocket, headers: Readonly<Record<string, string>>): Response;
}

/**
 * The upgrader `responseOf` calls for a 101: the accepted upgrade behind it, completed by the runtime.
 *
 * @example
 * responseOf(app, incoming, 'Headers', upgraderFor(denoWebSockets));
 */
export function upgraderFor(sockets: FetchWebSockets): WebSocketUpgrader {
  return (incoming, answer) => {
    const accepted = takeWebSocketUpgrade(incoming, answer);
    return accepted === undefined ? undefined : sockets.upgrade(incoming.toRequest(), incoming.platform, accepted.pending, accepted.headers);
  };
}
