import { routeShape, type RouterEntry, type ServedRoute } from '../../internal.js';
import type { FetchServing } from '../fetch/fetch-handler.js';

/** A handler of `Bun.serve`'s `routes`: Bun's request carries the parameters its router found. */
type BunRouteHandler = (request: Request & { readonly params?: Readonly<Record<string, string>> }, server: unknown) => Response | Promise<Response>;

/** `Bun.serve`'s `routes`: by path, then by method. */
export type BunRoutes = Record<string, Record<string, BunRouteHandler>>;

// Segments Bun's router reads as Tessera's does: plain static text, a whole-segment parameter.
const STATIC_SEGMENT = /^[A-Za-z0-9._~!$&'()+,;=@-]+$/;
const PARAM_SEGMENT = /^:[A-Za-z_][A-Za-z0-9_]*$/;
// The methods Bun's routes take as keys; a route of another method is left to the fetch handler.
const BUN_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

function isNativePath(path: string): boolean {
  return path === '/' || path.slice(1).split('/').every((segment) => STATIC_SEGMENT.test(segment) || PARAM_SEGMENT.test(segment));
}

/**
 * The app's route table as `Bun.serve`'s `routes`, so that Bun matches a request natively and
 * calls the route's answering function directly; undefined when Bun's router could disagree with
 * Tessera's, and then every request goes through the fetch handler as before.
 *
 * Bun routes a method only among the routes registered for it, and falls back to the fetch
 * handler for everything else, which keeps Tessera's rules where the two routers differ:
 * - a method is routed natively only when every route of it has a path Bun reads the same way
 *   (static segments of plain characters, whole-segment parameters, no `*`): otherwise a native
 *   route could take a request that a route left to the fetch handler should have had;
 * - two paths of the same shape with other parameter names (GET `/posts/:id`, DELETE
 *   `/posts/:postId`) turn native routing off: Bun would see two routes where Tessera sees one;
 * - HEAD is not registered: Bun serves it with the GET route, which Tessera does too;
 * - at request time, a path with a `%` (Bun decodes parameters as it matches, Tessera refuses a
 *   malformed escape with 400), a URL with a `\` or a `#` (targets the request view checks), and any route
 *   added after the table was handed over go to the fetch handler, which routes them in
 *   JavaScript;
 * - no route matching, another method (405 with `Allow`), a trailing slash: Bun finds nothing
 *   and calls the fetch handler.
 *
 * @example
 * Bun.serve({ routes: bunRoutes(servedRoutesOf(app) ?? [], serving), fetch: serving.fetch });
 */
export function bunRoutes(entries: readonly RouterEntry<ServedRoute>[], serving: FetchServing): BunRoutes | undefined {
  const shapes = new Map<string, string>();
  const foreign = new Set<string>();
  for (const { method, path } of entries) {
    const shape = routeShape(path);
    const seen = shapes.get(shape);
    if (seen !== undefined && seen !== path) return undefined;
    shapes.set(shape, path);
    if (!isNativePath(path)) foreign.add(method === 'HEAD' ? 'GET' : method);
  }
  const built = entries.length;
  const routes: BunRoutes = {};
  let any = false;
  for (const { method, path, value } of entries) {
    if (!BUN_METHODS.has(method) || foreign.has(method)) continue;
    const answer = value.answer;
    (routes[path] ??= {})[method] = (request, server) => {
      const incoming = serving.routedIncoming(request, server);
      if (incoming === undefined || entries.length !== built) return serving.fetch(request, server);
      return serving.viaRoute(answer, incoming, request.params ?? NO_PARAMS);
    };
    any = true;
  }
  return any ? routes : undefined;
}
