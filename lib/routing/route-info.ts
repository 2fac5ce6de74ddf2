import type { GuardToken } from '../app/guard.js';
import type { InterceptorToken } from '../app/interceptor.js';
import type { HttpMethod, Schema } from './route.js';

/**
 * One entry of the app's public route table: everything about a route except its handler.
 * Guards read the metadata from here; the OpenAPI generator reads the whole table.
 *
 * @example
 * for (const route of app.routes) console.log(route.method, route.path, route.status);
 */
export interface RouteInfo {
  readonly method: HttpMethod;
  /** The full canonical path: controller prefix joined with the route path. */
  readonly path: string;
  /** The route's name within its controller (the key in `routes`, or the method name). */
  readonly name: string;
  readonly controller: string;
  readonly module: string;
  readonly status: number;
  /** Path parameter names in order (`*` for a wildcard). */
  readonly params: readonly string[];
  readonly body: Schema | undefined;
  readonly query: Schema | undefined;
  readonly response: Schema | undefined;
  readonly guards: readonly GuardToken[];
  readonly interceptors: readonly InterceptorToken[];
  /** The route's own metadata. */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** The controller's metadata; a route's own entry for a key wins over it. */
  readonly controllerMetadata: Readonly<Record<string, unknown>>;
}
