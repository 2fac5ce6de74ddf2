import type { AcceptedUpgrade, App, IncomingRequest, SharedHeadersForm, WebSocketUpgrader } from '../../internal.js';
import { incomingFromRequest, responseOf } from '../../internal.js';
import { addressFromPlatform, isConnectionInfo } from './platform-address.js';

/**
 * Options of {@link toFetchHandler}.
 *
 * @example
 * toFetchHandler(app, { webSocketUpgrader: denoWebSocketUpgrader });
 */
export interface FetchHandlerOptions {
  /**
   * Completes the WebSocket upgrades the app accepts, on this runtime (`bunWebSocketUpgrader()`,
   * `denoWebSocketUpgrader`, `workersWebSocketUpgrader`). Without it, an upgrade to a WebSocket
   * route is answered 501.
   */
  readonly webSocketUpgrader?: WebSocketUpgrader | undefined;
}

/**
 * A fetch handler for Bun, Deno and Workers that also gives the app the client's address where
 * the runtime passes it: Bun's server (`server.requestIP(request)`) and Deno's connection info
 * (`info.remoteAddr`). Workers pass bindings instead: they reach `ctx.env`, and the address stays
 * unknown (so API keys restricted to networks are refused there, as they must be).
 * `app.fetch` alone serves too, without the client address.
 *
 * @example
 * Bun.serve({ fetch: toFetchHandler(app) });
 * Deno.serve(toFetchHandler(app, { webSocketUpgrader: denoWebSocketUpgrader }));
 * export default { fetch: toFetchHandler(app, { webSocketUpgrader: workersWebSocketUpgrader }) }; // Workers
 */
export function toFetchHandler(app: Pick<App, 'handle'>, options: FetchHandlerOptions = {}): (request: Request, platform?: unknown, executionContext?: unknown) => Response | Promise<Response> {
  const upgrader = options.webSocketUpgrader;
  const upgrade = upgrader === undefined ? undefined : (accepted: AcceptedUpgrade, incoming: IncomingRequest) => upgrader.upgrade(accepted, { request: incoming.toRequest(), platform: incoming.platform });
  // Deno copies a plain headers object into a Response for half what a Headers instance costs;
  // Bun the other way round (see SharedHeadersForm).
  const sharedHeaders: SharedHeadersForm = 'Deno' in globalThis ? 'object' : 'Headers';
  return (request, platform) => {
    const connection = isConnectionInfo(platform);
    // The address is read only if someone asks (API keys with networks, a log line).
    const incoming = incomingFromRequest(request, connection ? () => addressFromPlatform(request, platform) : undefined, connection ? undefined : platform, platform);
    return responseOf(app, incoming, sharedHeaders, upgrade);
  };
}
