import type { App, IncomingRequest } from '../../index.js';
import type { ResponseSource, RouteResponder, SharedHeadersForm } from '../../internal/request-path.js';
import type { AcceptedUpgrade, WebSocketUpgrader } from '../../internal/web-sockets.js';
import { incomingFromRequest, incomingOfRoutedRequest, responseOf } from '../../internal/request-path.js';
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
  /** @deprecated renamed webSocketUpgrader (same value); read only when that is not given. Removed in 0.3. */
  readonly webSockets?: WebSocketUpgrader | undefined;
}

/** A fetch handler as the runtimes call it: the request, then Bun's server, Deno's connection info or a Worker's env. */
export type FetchHandler = (request: Request, platform?: unknown, executionContext?: unknown) => Response | Promise<Response>;

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
export function toFetchHandler(app: Pick<App, 'handle'>, options: FetchHandlerOptions = {}): FetchHandler {
  return fetchHandlerParts(app, options).fetch;
}

/**
 * The pieces of {@link toFetchHandler}, for an adapter that routes some requests itself (Bun's
 * native routes): the request view of a runtime's request, and its Response through `app.handle`
 * or through a route's responder.
 *
 * @example
 * const parts = fetchHandlerParts(app);
 * const response = parts.viaApp(parts.incoming(request, server));
 */
export interface FetchHandlerParts {
  readonly fetch: FetchHandler;
  incoming(request: Request, platform: unknown): IncomingRequest;
  /** The view of a request the runtime routed, or undefined when Tessera's router must see it (see incomingOfRoutedRequest). */
  routedIncoming(request: Request, platform: unknown): IncomingRequest | undefined;
  viaApp(incoming: IncomingRequest): Response | Promise<Response>;
  viaResponder(respond: RouteResponder, incoming: IncomingRequest, params: Readonly<Record<string, string>>): Response | Promise<Response>;
}

/**
 * Builds {@link FetchHandlerParts} for an app; `toFetchHandler` is its `fetch`.
 *
 * @example
 * const { fetch } = fetchHandlerParts(app, { webSocketUpgrader: denoWebSocketUpgrader });
 */
export function fetchHandlerParts(app: Pick<App, 'handle'>, options: FetchHandlerOptions = {}): FetchHandlerParts {
  const upgrader = options.webSocketUpgrader ?? options.webSockets;
  const upgrade = upgrader === undefined ? undefined : (accepted: AcceptedUpgrade, incoming: IncomingRequest) => upgrader.upgrade(accepted, { request: incoming.toRequest(), platform: incoming.platform });
  // Deno copies a plain headers object into a Response for half what a Headers instance costs;
  // Bun the other way round (see SharedHeadersForm).
  const sharedHeaders: SharedHeadersForm = 'Deno' in globalThis ? 'object' : 'Headers';
  const viaHandle: ResponseSource = (incoming, _params, reply) => app.handle(incoming, reply);
  const incoming = viewWithPlatform(incomingFromRequest);
  const routedIncoming = viewWithPlatform(incomingOfRoutedRequest);
  const viaApp = (view: IncomingRequest) => responseOf(viaHandle, view, undefined, sharedHeaders, upgrade);
  return {
    fetch: (request, platform) => viaApp(incoming(request, platform)),
    incoming,
    routedIncoming,
    viaApp,
    viaResponder: (respond, view, params) => responseOf(respond, view, params, sharedHeaders, upgrade),
  };
}

/**
 * A request-view maker given what the runtime passed beside the request: Bun's server or Deno's
 * connection info give the client address (read only if someone asks: API keys with networks, a
 * log line), anything else (a Worker's bindings) is the environment.
 */
function viewWithPlatform<View>(make: (request: Request, clientAddress: (() => string | undefined) | undefined, env: unknown, platform: unknown) => View): (request: Request, platform: unknown) => View {
  return (request, platform) => (isConnectionInfo(platform) ? make(request, () => addressFromPlatform(request, platform), undefined, platform) : make(request, undefined, platform, platform));
}
