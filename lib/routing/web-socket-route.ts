import type { GuardToken } from '../context/guard.js';
import type { InterceptorToken } from '../context/interceptor.js';
import type { Schema } from '../context/route-info.js';
import type { QueryRecord } from '../http/query.js';
import { metadataRecord, type MetadataEntry } from '../common/metadata.js';
import { RouteDefinitionError } from './route-definition-error.js';
import { routeFromParts, type Parsed, type RouteDefinition, type RouteParts } from './route.js';
import type { ParamsSchema, ParsedParams } from './params-schema.js';
import type { WebSocketClientMessage, WebSocketConnection, WebSocketHandlers, WebSocketIncoming, WebSocketOptions, WebSocketOutgoing, WebSocketRouteTypes, WebSocketSpec } from './web-socket-spec.js';

/**
 * Everything `ws` takes beside the handlers: the socket's options, and the guards, interceptors
 * and metadata of its upgrade request.
 *
 * @example
 * const options: WebSocketRouteOptions<undefined, typeof Chat, undefined, false> = { message: Chat, guards: [AuthGuard] };
 */
export interface WebSocketRouteOptions<Q extends Schema | undefined, M extends Schema | undefined, S extends Schema | undefined, B extends boolean, Pa extends ParamsSchema | undefined = undefined>
  extends WebSocketOptions<Q, M, S, B, Pa> {
  /** Run on the upgrade request, before any socket exists: a refusal is an ordinary 401/403/404 answer. */
  readonly guards?: readonly GuardToken[];
  readonly interceptors?: readonly InterceptorToken[];
  readonly metadata?: readonly MetadataEntry[];
}

type AnyWebSocketOptions = WebSocketRouteOptions<Schema | undefined, Schema | undefined, Schema | undefined, boolean, ParamsSchema | undefined>;
type AnySocketOptions = WebSocketOptions<Schema | undefined, Schema | undefined, Schema | undefined, boolean, ParamsSchema | undefined>;

/** The connection a handler of path `Path` sees. */
type ConnectionOf<Path extends string, Q, S, Pa = undefined> = WebSocketConnection<ParsedParams<Path, Pa>, Parsed<Q, QueryRecord>, WebSocketOutgoing<S>>;

/**
 * The `ws` helper's overloads; `Prefix` types the controller prefix's parameters (see RouteHelper).
 *
 * @example
 * const live = ws('/live', { send: Post }, { open: (conn) => void conn.subscribe('posts') });
 */
export interface WebSocketRouteHelper<Prefix extends string = ''> {
  <const P extends string>(path: P, handlers: WebSocketHandlers<ConnectionOf<`${Prefix}/${P}`, undefined, undefined>, string>): RouteDefinition<WebSocketRouteTypes<P, undefined, string, unknown, undefined>>;
  <
    const P extends string,
    Q extends Schema | undefined = undefined,
    M extends Schema | undefined = undefined,
    S extends Schema | undefined = undefined,
    B extends boolean = false,
    Pa extends ParamsSchema | undefined = undefined,
  >(
    path: P,
    options: WebSocketRouteOptions<Q, M, S, B, Pa>,
    handlers: WebSocketHandlers<ConnectionOf<`${Prefix}/${P}`, Q, S, Pa>, WebSocketIncoming<M, B>>,
  ): RouteDefinition<WebSocketRouteTypes<P, Q, WebSocketClientMessage<M, B>, WebSocketOutgoing<S>, Pa>>;
}

const DEFAULT_MAX_MESSAGE_BYTES = 65_536;
const DEFAULT_IDLE_TIMEOUT_SECONDS = 60;
const DEFAULT_MAX_BUFFERED_BYTES = 1_048_576;

function positive(where: string, name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new RouteDefinitionError(`WebSocket route ${where}: ${name} must be a positive number, got ${value}`);
  return value;
}

/**
 * Builds a WebSocket route from its socket options, the parts of its upgrade request (guards,
 * interceptors, metadata as a record) and its handlers: a GET route whose upgrade request walks
 * the app's one path (middleware, guards, query validation) and, when all pass, opens the socket.
 * Shared by `ws` and the facade's `@Ws`, so that both build exactly the same data. Not part of the
 * public API.
 *
 * @example
 * webSocketRoute('/live', { send: Post }, { metadata: {} }, { open: (conn) => conn.send({ hello: true }) });
 */
export function webSocketRoute(
  path: string,
  options: AnySocketOptions,
  parts: Pick<RouteParts, 'guards' | 'interceptors' | 'metadata'>,
  handlers: WebSocketHandlers<never, never>,
): RouteDefinition {
  const where = `GET ${path}`;
  for (const name of ['open', 'message', 'close'] as const) {
    const handler = handlers[name];
    if (handler !== undefined && typeof handler !== 'function') throw new RouteDefinitionError(`WebSocket route ${where}: ${name} must be a function`);
  }
  if (options.invalidMessage !== undefined && options.invalidMessage !== 'close' && options.invalidMessage !== 'reply') {
    throw new RouteDefinitionError(`WebSocket route ${where}: invalidMessage must be 'close' or 'reply'`);
  }
  const spec: WebSocketSpec = Object.freeze({
    message: options.message,
    send: options.send,
    binary: options.binary === true,
    maxMessageBytes: positive(where, 'maxMessageBytes', options.maxMessageBytes, DEFAULT_MAX_MESSAGE_BYTES),
    idleTimeoutSeconds: positive(where, 'idleTimeoutSeconds', options.idleTimeoutSeconds, DEFAULT_IDLE_TIMEOUT_SECONDS),
    maxBufferedBytes: positive(where, 'maxBufferedBytes', options.maxBufferedBytes, DEFAULT_MAX_BUFFERED_BYTES),
    origins: options.origins === undefined || options.origins === '*' ? options.origins : Object.freeze([...options.origins]),
    protocols: Object.freeze([...(options.protocols ?? [])]),
    invalidMessage: options.invalidMessage ?? 'close',
    handlers: Object.freeze({ ...handlers }) as WebSocketSpec['handlers'],
  });
  return routeFromParts(
    'GET',
    path,
    { params: options.params, query: options.query, guards: parts.guards, interceptors: parts.interceptors, metadata: parts.metadata, webSocket: spec },
    // Never called: createApp answers a route with `webSocket` through the app's WebSocket hub.
    () => {
      throw new RouteDefinitionError(`WebSocket route ${where} was called as an HTTP handler; list it in a controller's routes, where createApp answers its upgrade.`);
    },
  );
}

/**
 * A WebSocket route. The upgrade request is an ordinary GET first: app middleware, guards and
 * query validation run before any socket exists, and a refusal is an ordinary answer. Then text
 * messages are JSON validated by `message`, and the handlers get a connection with the route's
 * params, the upgrade request's state (the verified user) and topics.
 *
 * @example
 * live: ws('/live', { guards: [AuthGuard], message: ChatMessage, send: ChatEvent }, {
 *   open: (conn) => void conn.subscribe('room'),
 *   message: (conn, msg) => void conn.publish('room', { from: conn.get(CURRENT_USER)?.sub, text: msg.text }),
 * }),
 */
export const ws: WebSocketRouteHelper = ((path: string, optionsOrHandlers: AnyWebSocketOptions | WebSocketHandlers<never, never>, handlers?: WebSocketHandlers<never, never>) => {
  if (handlers === undefined) return webSocketRoute(path, {}, { metadata: metadataRecord(undefined) }, optionsOrHandlers as WebSocketHandlers<never, never>);
  const options = optionsOrHandlers as AnyWebSocketOptions;
  return webSocketRoute(path, options, { guards: options.guards, interceptors: options.interceptors, metadata: metadataRecord(options.metadata) }, handlers);
}) as WebSocketRouteHelper;
