import type { RouteDefinition } from './route.js';

/**
 * One entry of the app's public route table: everything about a route except its handler.
 * The fields it shares with the route definition (method, status, schemas, guards,
 * interceptors, the route's own metadata) mean the same here; the rest place the route in the app.
 * Guards read the metadata from here; the OpenAPI generator reads the whole table.
 *
 * @example
 * for (const route of app.routes) console.log(route.method, route.path, route.status);
 */
export interface RouteInfo
  extends Pick<RouteDefinition, 'method' | 'status' | 'body' | 'query' | 'response' | 'guards' | 'interceptors' | 'metadata'> {
  /** The full canonical path: controller prefix joined with the route path. */
  readonly path: string;
  /** The route's name within its controller (the key in `routes`, or the method name). */
  readonly name: string;
  readonly controller: string;
  readonly module: string;
  /** Path parameter names in order (`*` for a wildcard). */
  readonly params: readonly string[];
  /** The controller's metadata; a route's own entry for a key wins over it. */
  readonly controllerMetadata: Readonly<Record<string, unknown>>;
}
