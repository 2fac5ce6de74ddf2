import type { ControllerDefinition, HttpMethod, RouteMap, RouteTypes, RouteTypesOf, WebSocketRouteTypes } from '../index.js';
import type { CallInput, ClientAnswer, ClientData, Jsonified } from './client-types.js';
import type { SocketWireInput, TypedSocket } from './typed-socket.js';

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
        [K in keyof Routes]: RouteTypesOf<Routes[K]> extends WebSocketRouteTypes<infer P, infer Q, infer In, infer Out, infer Pa>
          ? WebSocketRouteTypes<JoinPaths<Prefix, P>, Q, In, Out, Pa>
          : RouteTypesOf<Routes[K]> extends RouteTypes<infer M, infer P, infer B, infer Q, infer S, infer R, infer Pa>
            ? RouteTypes<M, JoinPaths<Prefix, P>, B, Q, S, R, Pa>
            : never;
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
/** The paths the API serves with method M (distributes over the API's routes; WebSocket routes are `socket`'s). */
type PathsOf<Api, M extends HttpMethod> = Api extends { readonly kind: 'websocket' } ? never : Api extends { readonly method: M; readonly path: infer P extends string } ? P : never;
type SocketPathsOf<Api> = Api extends WebSocketRouteTypes<infer P> ? P : never;
type SocketAt<Api, P> = Extract<Api, { readonly kind: 'websocket'; readonly path: P }>;
/** What opening a socket takes: the path's params (the `params` schema's input side), the query's input side, a token, subprotocols. */
type SocketInputOf<Route> = Route extends WebSocketRouteTypes<infer P, infer Q, unknown, unknown, infer Pa> ? Omit<CallInput<P, undefined, Q, Pa>, 'headers'> & Pick<SocketWireInput, 'token' | 'protocols'> : never;
type SocketOf<Route> = Route extends WebSocketRouteTypes<string, unknown, infer In, infer Out> ? TypedSocket<In, Jsonified<Out>> : never;

/**
 * Opens one of the API's WebSocket routes: the path template as the server declares it, its
 * params and query, and a bearer token (sent as a subprotocol entry). Messages are typed both ways.
 *
 * @example
 * const live = api.socket('/tenants/:tenantId/live', { params: { tenantId: 'acme' }, token });
 */
export type SocketCall<Api> = <P extends SocketPathsOf<Api>>(path: P, ...input: InputArgs<SocketInputOf<SocketAt<Api, P>>>) => SocketOf<SocketAt<Api, P>>;
type InputOf<Route> = Route extends RouteTypes<HttpMethod, infer P, infer B, infer Q, unknown, unknown, infer Pa> ? CallInput<P, B, Q, Pa> : never;
type DataOf<Route> = Route extends RouteTypes<HttpMethod, string, unknown, unknown, infer S, infer R> ? ClientData<S, R> : never;
/** The input argument: required when the route needs params or a body, optional otherwise. */
type InputArgs<I> = {} extends I ? [input?: I] : [input: I];

/** One HTTP method of the client: a path the API serves with that method, and its input. */
export type FetchCall<Api, M extends HttpMethod> = <P extends PathsOf<Api, M>>(path: P, ...input: InputArgs<InputOf<RouteAt<Api, M, P>>>) => Promise<ClientAnswer<DataOf<RouteAt<Api, M, P>>>>;

/**
 * The type-only client of an API: one function per HTTP method, taking the path template as the
 * server declares it (`'/posts/:id'`) and `{ params, query, body, headers }` typed from that route,
 * and `socket` for its WebSocket routes.
 *
 * @example
 * const api: FetchClient<Api> = createFetchClient<Api>('https://api.example.com');
 * const post = await api.GET('/posts/:id', { params: { id: '1' } });
 */
export type FetchClient<Api> = { readonly [M in HttpMethod]: FetchCall<Api, M> } & { readonly socket: SocketCall<Api> };
