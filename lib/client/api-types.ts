import type { ControllerDefinition, HttpMethod, RouteMap, RouteTypes, RouteTypesOf } from '../internal.js';
import type { CallInput, ClientAnswer, ClientData } from './client-types.js';

/** A path's non-empty segments, as the router splits it. */
type Segments<S extends string> = S extends `${infer Head}/${infer Tail}` ? (Head extends '' ? Segments<Tail> : [Head, ...Segments<Tail>]) : S extends '' ? [] : [S];
type JoinSegments<T extends readonly string[]> = T extends readonly [infer Head extends string, ...infer Rest extends string[]] ? (Rest extends [] ? Head : `${Head}/${JoinSegments<Rest>}`) : '';

/**
 * A controller prefix and a route path joined as the router joins them (one slash between
 * segments, a leading slash, no trailing one).
 *
 * @example
 * type P = JoinPaths<'/posts/', '/:id'>; // '/posts/:id'
 */
export type JoinPaths<Prefix extends string, Path extends string> = string extends Prefix | Path ? `/${string}` : `/${JoinSegments<[...Segments<Prefix>, ...Segments<Path>]>}`;

type RoutesOfController<C> =
  C extends ControllerDefinition<infer Routes extends RouteMap, infer Prefix extends string>
    ? {
        [K in keyof Routes]: RouteTypesOf<Routes[K]> extends RouteTypes<infer M, infer P, infer B, infer Q, infer S, infer R> ? RouteTypes<M, JoinPaths<Prefix, P>, B, Q, S, R> : never;
      }[keyof Routes]
    : never;

/**
 * The routes of controllers made with `defineController`, as a type: what `createFetchClient`
 * is typed from, a union of each route's `RouteTypes` with its full path (prefix joined).
 * Import the controllers with `import type`, so no server code reaches the bundle.
 *
 * @example
 * import type { postsController, tenantPostsController } from '../server/controllers.js';
 * export type Api = ApiOf<[typeof postsController, typeof tenantPostsController]>;
 */
export type ApiOf<Controllers extends readonly unknown[]> = RoutesOfController<Controllers[number]>;

type RouteAt<Api, M extends HttpMethod, P> = Extract<Api, { readonly method: M; readonly path: P }>;
/** The paths the API serves with method M (distributes over the API's routes). */
type PathsOf<Api, M extends HttpMethod> = Api extends { readonly method: M; readonly path: infer P extends string } ? P : never;
type InputOf<Route> = Route extends RouteTypes<HttpMethod, infer P, infer B, infer Q> ? CallInput<P, B, Q> : never;
type DataOf<Route> = Route extends RouteTypes<HttpMethod, string, unknown, unknown, infer S, infer R> ? ClientData<S, R> : never;
/** The input argument: required when the route needs params or a body, optional otherwise. */
type InputArgs<I> = {} extends I ? [input?: I] : [input: I];

/** One HTTP method of the client: a path the API serves with that method, and its input. */
export type FetchCall<Api, M extends HttpMethod> = <P extends PathsOf<Api, M>>(path: P, ...input: InputArgs<InputOf<RouteAt<Api, M, P>>>) => Promise<ClientAnswer<DataOf<RouteAt<Api, M, P>>>>;

/**
 * The type-only client of an API: one function per HTTP method, taking the path template as the
 * server declares it (`'/posts/:id'`) and `{ params, query, body, headers }` typed from that route.
 *
 * @example
 * const api: FetchClient<Api> = createFetchClient<Api>('https://api.example.com');
 * const post = await api.GET('/posts/:id', { params: { id: '1' } });
 */
export type FetchClient<Api> = { readonly [M in HttpMethod]: FetchCall<Api, M> };
