import type { App, SharedHeadersForm } from '../../internal.js';
import { incomingFromRequest, responseOf } from '../../internal.js';
import { addressFromPlatform, isConnectionInfo } from './platform-address.js';
import { upgraderFor, type FetchWebSockets } from './fetch-web-sockets.js';

/**
 * Options of {@link toFetchHandler}.
 *
 * @example
 * toFetchHandler(app, { webSockets: denoWebSockets });
 */
export interface FetchHandlerOptions {
  /**
   * The runtime's WebSocket support (`bunWebSockets()`, `denoWebSockets`, `workersWebSockets`).
   * Without it, an upgrade to a WebSocket route is answered 501.
   */
  readonly webSockets?: FetchWebSockets | undefined;
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
 * Deno.serve(toFetchHandler(app, { webSockets: denoWebSockets }));
 * export default { fetch: toFetchHandler(app, { webSockets: workersWebSockets }) }; // Workers
 */
export function toFetchHandler(app: Pick<App, 'handle'>, options: FetchHandlerOptions = {}): (request: Request, platform?: unknown, executionContext?: unknown) => Response | Promise<Response> {
  const upgrade = options.webSockets === undefined ? undefined : upgraderFor(options.webSockets);
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
