import type { HttpException } from './http-exception.js';

/**
 * What the core needs from an incoming request. `app.fetch` builds it over a web-standard
 * Request; the Node adapter builds it over the socket's message, so a handler that never reads
 * the Request object never pays for one.
 *
 * @example
 * const incoming = incomingFromRequest(new Request('http://localhost/posts?page=2')); // fetch-incoming.ts
 * incoming.path;   // '/posts'
 * incoming.search; // 'page=2'
 */
export interface IncomingRequest {
  readonly method: string;
  /** The path as sent, still percent-encoded, without the query. */
  readonly path: string;
  /** The raw query string without `?`; empty when there is none. */
  readonly search: string;
  /** The client's network address as the runtime reports it, or undefined when it cannot. */
  readonly clientAddress: string | undefined;
  /** `http` or `https`, as the connection (not a forwarding header) says; telemetry reads it. */
  readonly scheme?: string;
  /** The HTTP version (`1.1`, `2`) when the runtime tells it; telemetry reads it. */
  readonly protocolVersion?: string | undefined;
  /** The platform's environment (Workers bindings, the second argument of `fetch`), if any. */
  readonly env?: unknown;
  /**
   * The second argument of a fetch runtime's handler as the runtime gave it (Bun's server, Deno's
   * connection info, Workers' bindings), for the adapter's own use: a WebSocket upgrade on Bun
   * needs the server.
   */
  readonly platform?: unknown;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
  /** A header value by lowercase name; repeated headers are joined with `, `. */
  header(name: string): string | null;
  /**
   * Reads the whole body and hands its bytes, exactly as sent (never decoded: the core decodes
   * JSON and refuses what is not UTF-8), to `onBytes`, or the failure to `onError` (a 413 as soon
   * as it passes `limit` bytes, a client that left mid-body), exactly once. The callback may run
   * before this call returns (a body already known to be empty or too large) or later, in the
   * event that ends the body: the core continues the route's work right there, so an adapter
   * needs no promise between its socket and the handler.
   */
  readBody(limit: number, onBytes: (bytes: Uint8Array) => void, onError: (error: unknown) => void): void;
  /**
   * The web-standard Request; adapters build it only when someone asks. With `bodyLimit`, its
   * body refuses to yield more than that many bytes: however it is read (`arrayBuffer()`,
   * `formData()`, the stream), a larger body fails with a 413 without being buffered past the limit.
   */
  toRequest(bodyLimit?: number): Request;
  /**
   * Set by the adapter for a request it can tell is malformed before any routing (a bad request
   * target, two Host headers, a Host that disagrees with the target): the app answers this
   * error, through the same error path as everything else, and routes nothing.
   */
  readonly invalid?: HttpException | undefined;
  /**
   * The request as a WebSocket's context keeps it once its upgrade is accepted: the method, the
   * target, the headers and the client's address, without the runtime's request objects (a Node
   * request, response and body reader; a web Request), which would otherwise live as long as the
   * socket. The HTTP exchange is over: the detached request has no body, and its `signal` is
   * `socket.signal` (the connection's, aborted when it closes). Adapters whose request view
   * holds nothing heavy leave it out.
   */
  detach?(socket: { readonly signal: AbortSignal }): IncomingRequest;
}
