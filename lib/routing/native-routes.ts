import type { RouterEntry } from './router.js';
import { routeShape } from './path.js';

/**
 * The method whose route answers a request: a HEAD request is answered by the GET route (RFC
 * 9110 §9.3.2), its answer sent without a body (see {@link answersWithoutBody}). The one place
 * this rule is written: the dispatch routes with it, and a runtime's native router is never
 * given HEAD routes (it serves HEAD with the GET route, as Tessera does).
 *
 * @example
 * router.match(routedMethod(incoming.method), incoming.path);
 */
export function routedMethod(method: string): string {
  return method === 'HEAD' ? 'GET' : method;
}

/**
 * Whether a request's answer goes out without its body (HEAD), after the middleware, which saw
 * the GET route's answer whole (an ETag middleware gives HEAD the GET's tag).
 *
 * @example
 * const send = answersWithoutBody(incoming.method) ? (answer) => reply(withoutBody(answer)) : reply;
 */
export function answersWithoutBody(method: string): boolean {
  return method === 'HEAD';
}

// Segments a native router reads as Tessera's does: plain static text, a whole-segment parameter.
const STATIC_SEGMENT = /^[A-Za-z0-9._~!$&'()+,;=@-]+$/;
const PARAM_SEGMENT = /^:[A-Za-z_][A-Za-z0-9_]*$/;

function isPlainPath(path: string): boolean {
  return path === '/' || path.slice(1).split('/').every((segment) => STATIC_SEGMENT.test(segment) || PARAM_SEGMENT.test(segment));
}

/**
 * The part of a route table a runtime's native router (Bun's `routes`) may take, read from the
 * table itself; undefined when none, or when the native router could disagree with Tessera's.
 * The runtime routes a method only among the routes registered for it and hands everything else
 * to Tessera's router, so the rules stay Tessera's where the two routers differ:
 * - a method is given only when every route of it (HEAD counted as GET) has a plain path (static
 *   segments of plain characters, whole-segment parameters, no `*`): otherwise a native route
 *   could take a request a route left to Tessera's router should have had;
 * - two paths of the same shape with other parameter names turn native routing off (the native
 *   router would see two routes where Tessera sees one);
 * - HEAD routes are not given ({@link routedMethod}); nor are methods outside `methods`.
 * At request time, `mayRouteNatively` says which requests the native router may take.
 *
 * @example
 * const table = nativeRouteTable(router.entries, new Set(['GET', 'POST']));
 */
export function nativeRouteTable<T>(entries: readonly RouterEntry<T>[], methods: ReadonlySet<string>): readonly RouterEntry<T>[] | undefined {
  const shapes = new Map<string, string>();
  const foreign = new Set<string>();
  for (const { method, path } of entries) {
    const shape = routeShape(path);
    const seen = shapes.get(shape);
    if (seen !== undefined && seen !== path) return undefined;
    shapes.set(shape, path);
    if (!isPlainPath(path)) foreign.add(routedMethod(method));
  }
  const table = entries.filter(({ method }) => routedMethod(method) === method && methods.has(method) && !foreign.has(method));
  return table.length === 0 ? undefined : table;
}

// Which requests a native router may answer on its match (no `%` in the path, no `\` or `#`) is
// a rule of the request target, written beside the request view that relies on it; listed here
// with the table's rules so that a runtime adapter takes every native-routing rule from one module.
export { mayRouteNatively } from '../http/native-target.js';
