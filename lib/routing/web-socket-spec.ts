import type { RequestContext, StateKey } from '../context/request-context.js';
import type { Schema } from '../context/route-info.js';
import type { ParamsSchema } from './params-schema.js';
import type { SchemaInput, SchemaOutput } from '../schema/schema-types.js';

/**
 * One open WebSocket as its route's handlers see it: the upgrade request's params, query and
 * state (the user a guard verified, the tenant), and the socket. `Out` is what the route declared
 * it sends (its `send` schema's input); bytes are sent as a binary message, anything else as
 * JSON, a string too when the route has a `send` schema (what the typed client parses is then what
 * was sent: `'123'` arrives as the string `'123'`); without one, a string is sent as it is.
 *
 * @example
 * open(conn) { conn.send({ hello: conn.get(CURRENT_USER)?.sub }); void conn.subscribe(`tenant:${conn.params.tenantId}`); }
 */
export interface WebSocketConnection<Params extends object = Readonly<Record<string, string>>, Query = unknown, Out = unknown> {
  /** Unique within the process, for logs and maps. */
  readonly id: string;
  /** The route's path parameters, URL-decoded, as on an HTTP route. */
  readonly params: Params;
  /** The upgrade request's query: the route's validated query when it has a schema. */
  readonly query: Query;
  /** The upgrade request's context, as guards left it (read state with `get`). */
  readonly context: RequestContext;
  /** The subprotocol the server chose, if any (see the route's `protocols`). */
  readonly protocol: string | undefined;
  /** Aborted when the connection closes: stop what feeds it. */
  readonly signal: AbortSignal;
  /** Bytes queued for this client and not yet on the network. */
  readonly bufferedAmount: number;
  /** A value a guard or middleware set on the upgrade request (`ctx.set(key, value)`). */
  get<T>(key: StateKey<T>): T | undefined;
  /**
   * Queues one message. False means slow down: the queue holds more than half the route's
   * `maxBufferedBytes` (await `drained()` before sending more); past the whole limit the
   * connection is closed with 1008. Sending on a closed connection does nothing and returns false.
   */
  send(data: Out | Uint8Array): boolean;
  /** Resolves once the queue is back under half of `maxBufferedBytes`, or the connection closed. */
  drained(): Promise<void>;
  /** Closes with `code` (default 1000) and `reason` (at most 123 bytes of UTF-8). */
  close(code?: number, reason?: string): void;
  /** Receives every message published to `topic` from now on (see `publish`). */
  subscribe(topic: string): Promise<void>;
  /** Stops receiving `topic`. */
  unsubscribe(topic: string): Promise<void>;
  /** Sends `data` to every connection subscribed to `topic`, this one included if it is. */
  publish(topic: string, data: Out): Promise<void>;
}

/**
 * The handlers of a WebSocket route. Any may be async; an error (thrown or rejected) is logged and
 * closes the connection with 1011. Messages are handed over as they arrive, without waiting for
 * the previous handler's promise.
 *
 * @example
 * const handlers: WebSocketHandlers<WebSocketConnection, string> = { message: (conn, text) => void conn.send(text) };
 */
export interface WebSocketHandlers<Conn, In> {
  /** The socket is open: subscribe, send a greeting, start what feeds it. */
  readonly open?: (conn: Conn) => void | Promise<void>;
  /** One valid message: the route's `message` schema's output for text, bytes for binary when allowed. */
  readonly message?: (conn: Conn, data: In) => void | Promise<void>;
  /** The connection closed, with the peer's code (1006 when it vanished without a close frame). */
  readonly close?: (conn: Conn, code: number, reason: string) => void | Promise<void>;
}

/**
 * Options of a WebSocket route (`ws(path, options, handlers)`), beside guards and metadata.
 *
 * @example
 * const options: WebSocketOptions<undefined, typeof ChatMessage, typeof ChatEvent, false> = { message: ChatMessage, send: ChatEvent, maxMessageBytes: 4096 };
 */
export interface WebSocketOptions<Q extends Schema | undefined, M extends Schema | undefined, S extends Schema | undefined, B extends boolean, Pa extends ParamsSchema | undefined = undefined> {
  /** Parses the path parameters, as an HTTP route's `params` does: `conn.params` holds its output; failure is 400 before any socket exists. */
  readonly params?: Pa;
  /** Validates the upgrade request's query; failure is 400 before any socket exists. */
  readonly query?: Q;
  /**
   * Text messages are JSON, validated by this schema: what the `message` handler receives. A
   * message that is not JSON or fails it never reaches the handler (see `invalidMessage`). Without
   * it the handler receives the text as it came.
   */
  readonly message?: M;
  /** What the server sends: types `conn.send` and the typed client, and documents the route. */
  readonly send?: S;
  /** Accepts binary messages (the handler then receives `Uint8Array` too); otherwise they close with 1003. Default false. */
  readonly binary?: B;
  /** Largest message accepted, in bytes; a bigger one closes the connection with 1009. Default 65 536. */
  readonly maxMessageBytes?: number;
  /**
   * A connection that neither sends nor answers the server's pings for this long is dropped
   * (pings go out after half of it). Default 60. Where the runtime cannot ping (workerd), the
   * runtime's own keep-alive applies instead.
   */
  readonly idleTimeoutSeconds?: number;
  /** Bytes that may wait in a connection's send queue; past it the connection is closed with 1008. Default 1 MiB. */
  readonly maxBufferedBytes?: number;
  /**
   * Browser origins allowed to open the socket (`Origin` header), against cross-site WebSocket
   * hijacking: a list of exact origins, or `'*'`. Default: the request's own origin (a page this
   * host served) and the origins the app's `cors()` policy allows. Requests without `Origin`
   * (non-browser clients) pass.
   */
  readonly origins?: '*' | readonly string[];
  /**
   * Subprotocols the route speaks, in preference order; the first one the client offers is
   * chosen. `tessera` is always accepted (a browser offering a bearer token must also offer a
   * protocol the server can choose: see the README's WebSocket section).
   */
  readonly protocols?: readonly string[];
  /** A text message that is not JSON or fails `message`: `'close'` (1007, the default) or `'reply'` (an error message, the connection stays). */
  readonly invalidMessage?: 'close' | 'reply';
}

/** What a route's `message` schema (or its absence) and `binary` make of an incoming message. */
export type WebSocketIncoming<M, B> = (M extends Schema ? SchemaOutput<M> : string) | (B extends true ? Uint8Array : never);

/** What a client sends to a route with `message` schema `M` (its input side) and `binary` `B`. */
export type WebSocketClientMessage<M, B> = (M extends Schema ? SchemaInput<M> : string) | (B extends true ? Uint8Array : never);

/** What `conn.send` takes for a route with `send` schema `S`. */
export type WebSocketOutgoing<S> = S extends Schema ? SchemaInput<S> : unknown;

/**
 * A WebSocket route's socket half, as plain data on its RouteDefinition (`webSocket`): the
 * options with their defaults, and the handlers (typed loosely here; the helper checked them).
 */
export interface WebSocketSpec {
  readonly message: Schema | undefined;
  readonly send: Schema | undefined;
  readonly binary: boolean;
  readonly maxMessageBytes: number;
  readonly idleTimeoutSeconds: number;
  readonly maxBufferedBytes: number;
  readonly origins: '*' | readonly string[] | undefined;
  readonly protocols: readonly string[];
  readonly invalidMessage: 'close' | 'reply';
  readonly handlers: WebSocketHandlers<WebSocketConnection, unknown>;
}

/**
 * The compile-time types of a WebSocket route, for a typed client: the path, the upgrade query,
 * and the messages each way. Not a `RouteTypes`, so HTTP clients skip the route.
 *
 * @example
 * type Live = RouteTypesOf<typeof liveRoute>; // { kind: 'websocket'; path: '/live'; ... }
 */
export interface WebSocketRouteTypes<P extends string = string, Q = unknown, In = unknown, Out = unknown, Pa = unknown> {
  readonly kind: 'websocket';
  readonly method: 'GET';
  readonly path: P;
  /** The `params` schema (`undefined` without one): the client sends its input side. */
  readonly params: Pa;
  readonly query: Q;
  /** What the client sends (the `message` schema). */
  readonly clientMessage: In;
  /** What the server sends (the `send` schema). */
  readonly serverMessage: Out;
}
