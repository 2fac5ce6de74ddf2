import { nativeRouteTable, type RespondingRoute, type RouterEntry } from '../../internal/request-path.js';
import type { FetchHandlerParts } from '../fetch/fetch-handler.js';

/** A handler of `Bun.serve`'s `routes`: Bun's request carries the parameters its router found. */
type BunRouteHandler = (request: Request & { readonly params?: Readonly<Record<string, string>> }, server: unknown) => Response | Promise<Response>;

/** `Bun.serve`'s `routes`: by path, then by method. */
export type BunRoutes = Record<string, Record<string, BunRouteHandler>>;

// The methods Bun's routes take as keys; a route of another method is left to the fetch handler.
const BUN_METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The app's route table as `Bun.serve`'s `routes`, so that Bun matches a request natively and
 * calls the route's responder directly; undefined when Bun's router could disagree with
 * Tessera's, and then every request goes through the fetch handler as before. Which routes Bun
 * may take is the route table's own rule (`nativeRouteTable`: plain paths only, one parameter
 * name per shape, no HEAD), as is which requests it may answer on its match (the request view
 * returns undefined where `mayRouteNatively` says no: a `%` in the path, a `\` or a `#`). Those
 * requests, a route added after the table was handed over, no route, another method (405 with
 * `Allow`) and a trailing slash go to the fetch handler, which routes them in JavaScript.
 *
 * @example
 * Bun.serve({ routes: bunRoutes(respondingRoutesOf(app) ?? [], parts), fetch: parts.fetch });
 */
export function bunRoutes(entries: readonly RouterEntry<RespondingRoute>[], parts: FetchHandlerParts): BunRoutes | undefined {
  const table = nativeRouteTable(entries, BUN_METHODS);
  if (table === undefined) return undefined;
  const built = entries.length;
  const routes: BunRoutes = {};
  for (const { method, path, value } of table) {
    const respond = value.respond;
    (routes[path] ??= {})[method] = (request, server) => {
      const incoming = parts.routedIncoming(request, server);
      if (incoming === undefined || entries.length !== built) return parts.fetch(request, server);
      return parts.viaResponder(respond, incoming, request.params ?? NO_PARAMS);
    };
  }
  return routes;
}
