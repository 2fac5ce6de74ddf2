import type { InjectionToken } from '../di/token.js';
import type { StandardSchemaV1 } from '../schema/standard-schema.js';

/**
 * Any Standard Schema (zod 4, valibot, ArkType, ...): what routes validate bodies, queries and
 * path parameters with and describe responses by. zod is the fast path (a compiled response
 * serializer, the built-in OpenAPI conversion); every other library is validated through
 * `~standard.validate`.
 *
 * @example
 * const body: Schema = z.object({ title: z.string() });
 * const same: Schema = v.object({ title: v.string() });
 */
export type Schema = StandardSchemaV1;

/**
 * The parts of a route that both its definition and its route-table entry have, with the same
 * meaning: the route definition (`RouteDefinition`) adds the handler, the table entry
 * (`RouteInfo`) places the route in the app.
 *
 * @example
 * const shape: RouteShape = { method: 'GET', status: 200, body: undefined, query: undefined, response: undefined, guards: [], interceptors: [], metadata: {} };
 */
export interface RouteShape {
  readonly method: HttpMethod;
  readonly status: number;
  readonly body: Schema | undefined;
  readonly query: Schema | undefined;
  readonly response: Schema | undefined;
  /**
   * The route's `params` option: a zod object validating the path parameters it names (their
   * names, in order, are `RouteInfo.params`). Optional, so that an older definition still fits.
   */
  readonly paramsSchema?: Schema | undefined;
  // The tokens as declared, typed by what they are rather than what they resolve to: a Guard takes
  // the RequestContext that carries this record, so naming GuardToken here would close an import
  // cycle (request-context -> route-info -> guard -> request-context). RouteDefinition narrows them.
  readonly guards: readonly InjectionToken<unknown>[];
  readonly interceptors: readonly InjectionToken<unknown>[];
  readonly metadata: Readonly<Record<string, unknown>>;
}

/** The methods a route can be declared for (HEAD is served by GET). */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One entry of the app's public route table: everything about a route except its handler.
 * The fields it shares with the route definition (method, status, schemas, guards,
 * interceptors, the route's own metadata) mean the same here; the rest place the route in the app.
 * Guards read the metadata from here; the OpenAPI generator reads the whole table.
 *
 * @example
 * for (const route of app.routes) console.log(route.method, route.path, route.status);
 */
export interface RouteInfo extends RouteShape {
  /** Set on a WebSocket route: the schemas of the messages each way (for OpenAPI and clients). */
  readonly webSocket?: { readonly message: Schema | undefined; readonly send: Schema | undefined } | undefined;
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
