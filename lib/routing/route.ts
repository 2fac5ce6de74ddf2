import { RouteDefinitionError } from './route-definition-error.js';
import type { GuardToken } from '../context/guard.js';
import type { InterceptorToken } from '../context/interceptor.js';
import type { QueryRecord } from '../http/query.js';
import type { RequestContext } from '../context/request-context.js';
import { metadataRecord, type MetadataEntry } from '../common/metadata.js';
import type { PathParams } from './path.js';
import type { WebSocketSpec } from './web-socket-spec.js';
import type { ParamsSchema, ParsedParams } from './params-schema.js';
import type { SchemaOutput } from '../schema/schema-types.js';

export type { ParamsSchema, ParsedParams } from './params-schema.js';

/** The HTTP methods routes can declare. */
import type { HttpMethod, RouteShape, Schema } from '../context/route-info.js';

export type { HttpMethod, Schema } from '../context/route-info.js';

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * The path parameters a handler of `Path` sees, exactly: a misspelt name is a compile error.
 * Under a controller prefix with parameters, the helpers the controller's `routes` receives
 * (see defineController) pass the prefix in, so `Path` is the full path.
 */
export type RouteParams<Path extends string> = Simplify<PathParams<Path>>;

/** The value a schema option turns into, or the fallback when the option is absent. */
export type Parsed<S, Fallback> = S extends Schema ? SchemaOutput<S> : Fallback;

/**
 * A route handler. Returning a value sends it as JSON; `undefined` sends 204; a Response is
 * sent as is. Handlers may be synchronous.
 *
 * @example
 * const handler: Handler<'/:id', undefined, undefined, Post> = (ctx) => store.get(ctx.params.id);
 */
export type Handler<Path extends string, B, Q, R, Pa = undefined> = (
  ctx: RequestContext<ParsedParams<Path, Pa>, Parsed<B, undefined>, Parsed<Q, QueryRecord>>,
) => R | Promise<R>;

/** The result a handler may return for a route with response schema `S`. */
export type HandlerResult<S> = (S extends Schema ? SchemaOutput<S> : unknown) | Response | undefined;

/**
 * Options of a route.
 *
 * @example
 * const options: RouteOptions<typeof CreatePost, undefined, typeof Post> = { body: CreatePost, response: Post, status: 201 };
 */
export interface RouteOptions<B extends Schema | undefined, Q extends Schema | undefined, S extends Schema | undefined, Pa extends ParamsSchema | undefined = undefined> {
  /**
   * Parses path parameters: a zod object naming some or all of the path's parameters
   * (`{ id: z.coerce.number().int() }`); the handler sees their output in `ctx.params`, the others
   * stay strings. It runs after the guards, before the body is read; failure is 400 with the
   * issues (`path: ['id']`). A name the path does not declare fails `createApp`. Another
   * library's object schema (valibot, ArkType) is given every path parameter.
   */
  readonly params?: Pa;
  /** Validates the JSON body (any Standard Schema; awaited when async) before the handler runs; failure is 400 with the issues. */
  readonly body?: B;
  /** Validates the parsed query string; failure is 400 with the issues. */
  readonly query?: Q;
  /**
   * Declares the success body: the handler's return type, OpenAPI, and what is sent. The result is
   * written by a serialiser compiled from the schema's output side (zod), or validated by the
   * schema and its output sent (another Standard Schema): fields the schema does not declare are
   * stripped (a password hash on the record never leaks), and a result the schema refuses is a
   * 500, logged with the route's name, never sent. See `serializeResponse`.
   */
  readonly response?: S;
  /**
   * `false` sends the result as `JSON.stringify` writes it, neither checked nor stripped (the
   * schema then only documents). Default true; it has no effect without `response`.
   */
  readonly serializeResponse?: boolean;
  /** Success status; 200 unless given. `undefined` results are always 204. */
  readonly status?: number;
  readonly guards?: readonly GuardToken[];
  readonly interceptors?: readonly InterceptorToken[];
  /** Open metadata (roles, scopes, summaries...). Entries are made by `key.with(value)` or helpers such as `Roles(...)`. */
  readonly metadata?: readonly MetadataEntry[];
  /** Overrides the app's body size limit for this route, in bytes. */
  readonly bodyLimit?: number;
}

/**
 * What a route helper knows of a route at compile time: its method, path literal, schemas and
 * handler result. Carried by `RouteDefinition` as a type only (never a run-time value), so that a
 * typed client can be derived from a controller's routes.
 *
 * @example
 * type Create = RouteTypesOf<typeof createRoute>; // { method: 'POST'; path: '/'; body: typeof CreatePost; ... }
 */
export interface RouteTypes<M extends HttpMethod = HttpMethod, P extends string = string, B = unknown, Q = unknown, S = unknown, R = unknown, Pa = unknown> {
  readonly method: M;
  readonly path: P;
  /** The `params` schema (`undefined` without one): clients send its input side. */
  readonly params: Pa;
  readonly body: B;
  readonly query: Q;
  readonly response: S;
  readonly result: R;
}

/**
 * The compile-time types of a route definition.
 *
 * @example
 * type Path = RouteTypesOf<typeof route>['path'];
 */
export type RouteTypesOf<D> = D extends { readonly '~types'?: infer T } ? Exclude<T, undefined> : never;

/**
 * A route as plain data. Handlers receive the typed context; the route table exposes the rest.
 * `T` records the route's types for typed clients; it has no run-time value.
 *
 * @example
 * const route: RouteDefinition = get('/', () => []);
 * route.method; // 'GET'
 */
export interface RouteDefinition<T = unknown> extends RouteShape {
  /** Type carrier only: never set. */
  readonly '~types'?: T;
  readonly kind: 'route';
  readonly path: string;
  readonly guards: readonly GuardToken[];
  readonly interceptors: readonly InterceptorToken[];
  readonly bodyLimit: number | undefined;
  /** Whether the result goes through the `response` schema's serialiser (see RouteOptions). */
  readonly serializeResponse: boolean;
  /** The handler, typed loosely here; the helper that built the route checked its types. */
  readonly handler: (ctx: RequestContext) => unknown;
  /** Set on a WebSocket route (see `ws`): the socket's options and handlers. */
  readonly webSocket: WebSocketSpec | undefined;
}

type AnyOptions = RouteOptions<Schema | undefined, Schema | undefined, Schema | undefined, ParamsSchema | undefined>;

/**
 * The parts of a route with its metadata already a record; shared by the route helpers and the
 * facade so that both build exactly the same data. Not part of the public API.
 */
export interface RouteParts {
  /** The `params` option (a zod object; the facade assembles it from `@Param(name, schema)`). */
  readonly params?: Schema | undefined;
  readonly body?: Schema | undefined;
  readonly query?: Schema | undefined;
  readonly response?: Schema | undefined;
  readonly serializeResponse?: boolean | undefined;
  readonly status?: number | undefined;
  readonly guards?: readonly GuardToken[] | undefined;
  readonly interceptors?: readonly InterceptorToken[] | undefined;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly bodyLimit?: number | undefined;
  readonly webSocket?: WebSocketSpec | undefined;
}

/**
 * Builds a frozen RouteDefinition from its parts; checks what can be checked without the app.
 * A building block for other front ends (the decorator facade); applications use `get`, `post`, ...
 *
 * @example
 * routeFromParts('GET', '/', { metadata: {} }, () => 'ok');
 */
export function routeFromParts(method: HttpMethod, path: string, parts: RouteParts, handler: (ctx: never) => unknown): RouteDefinition {
  if (parts.status !== undefined && (!Number.isInteger(parts.status) || parts.status < 200 || parts.status > 299)) {
    throw new RouteDefinitionError(`Route ${method} ${path}: success status must be 2xx, got ${parts.status}`);
  }
  return Object.freeze({
    kind: 'route',
    method,
    path,
    status: parts.status ?? 200,
    paramsSchema: parts.params,
    body: parts.body,
    query: parts.query,
    response: parts.response,
    guards: Object.freeze([...(parts.guards ?? [])]),
    interceptors: Object.freeze([...(parts.interceptors ?? [])]),
    metadata: parts.metadata,
    bodyLimit: parts.bodyLimit,
    serializeResponse: parts.serializeResponse !== false,
    handler: handler as (ctx: RequestContext) => unknown,
    webSocket: parts.webSocket,
  });
}

function defineRoute(method: HttpMethod, path: string, options: AnyOptions, handler: (ctx: never) => unknown): RouteDefinition {
  return routeFromParts(method, path, { ...options, metadata: metadataRecord(options.metadata) }, handler);
}

/**
 * The overloads every method helper has. `Prefix` is the controller prefix the helper was bound
 * to (see defineController's `routes`), typing the prefix's parameters in `ctx.params`; the route
 * keeps its own path `P`. Public so that a project emitting declarations can re-export `get` and
 * its siblings (their type must be nameable: TS4023 otherwise).
 *
 * @example
 * import { get, type RouteHelper } from 'tessera-http';
 * export const read: RouteHelper<'GET'> = get;
 */
export interface RouteHelper<M extends HttpMethod = HttpMethod, Prefix extends string = ''> {
  <const P extends string, R extends HandlerResult<undefined>>(path: P, handler: Handler<`${Prefix}/${P}`, undefined, undefined, R>): RouteDefinition<RouteTypes<M, P, undefined, undefined, undefined, R, undefined>>;
  <
    const P extends string,
    B extends Schema | undefined = undefined,
    Q extends Schema | undefined = undefined,
    S extends Schema | undefined = undefined,
    R extends HandlerResult<S> = HandlerResult<S>,
    Pa extends ParamsSchema | undefined = undefined,
  >(
    path: P,
    options: RouteOptions<B, Q, S, Pa>,
    handler: Handler<`${Prefix}/${P}`, B, Q, R, Pa>,
  ): RouteDefinition<RouteTypes<M, P, B, Q, S, R, Pa>>;
}

function routeHelper<M extends HttpMethod>(method: M): RouteHelper<M> {
  return ((path: string, optionsOrHandler: AnyOptions | ((ctx: never) => unknown), handler?: (ctx: never) => unknown) =>
    typeof optionsOrHandler === 'function'
      ? defineRoute(method, path, {}, optionsOrHandler)
      : defineRoute(method, path, optionsOrHandler, handler as (ctx: never) => unknown)) as RouteHelper<M>;
}

/**
 * A GET route. @example get('/:id', (ctx) => store.get(ctx.params.id))
 */
export const get: RouteHelper<'GET'> = routeHelper('GET');
/**
 * A POST route. @example post('/', { body: CreatePost, status: 201 }, (ctx) => store.create(ctx.body))
 */
export const post: RouteHelper<'POST'> = routeHelper('POST');
/**
 * A PUT route. @example put('/:id', { body: Post }, (ctx) => store.replace(ctx.params.id, ctx.body))
 */
export const put: RouteHelper<'PUT'> = routeHelper('PUT');
/**
 * A PATCH route. @example patch('/:id', { body: UpdatePost }, (ctx) => store.update(ctx.params.id, ctx.body))
 */
export const patch: RouteHelper<'PATCH'> = routeHelper('PATCH');
/**
 * A DELETE route (`delete` is a reserved word). @example del('/:id', (ctx) => { store.remove(ctx.params.id); })
 */
export const del: RouteHelper<'DELETE'> = routeHelper('DELETE');
