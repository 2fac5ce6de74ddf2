import { BadRequestException, PayloadTooLargeException, type HttpException } from './http-exception.js';
import { parseRequestTarget } from './request-target.js';

/**
 * What the core needs from an incoming request. `app.fetch` builds it over a web-standard
 * Request; the Node adapter builds it over the socket's message, so a handler that never reads
 * the Request object never pays for one.
 *
 * @example
 * const incoming = incomingFromRequest(new Request('http://localhost/posts?page=2'));
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
  /** The platform's environment (Workers bindings, the second argument of `fetch`), if any. */
  readonly env?: unknown;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
  /** A header value by lowercase name; repeated headers are joined with `, `. */
  header(name: string): string | null;
  /**
   * Reads the whole body and hands it to `onBytes`, or the failure to `onError` (a 413 as soon
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
}

/**
 * Builds an IncomingRequest over a web-standard Request.
 *
 * @example
 * app.handle(incomingFromRequest(request, '203.0.113.9', env), (answer) => write(answer));
 */
export function incomingFromRequest(request: Request, clientAddress?: string, env?: unknown): IncomingRequest {
  // A Request's URL is already a parsed absolute URL, so this takes the scanning fast path.
  const target = parseRequestTarget(request.url);
  const routable = target.kind === 'absolute';
  let limited: Request | undefined;
  return {
    method: request.method,
    path: routable ? target.path : '/',
    search: routable ? target.search : '',
    invalid: routable ? undefined : new BadRequestException('The request URL is not an absolute http(s) URL.'),
    clientAddress,
    env,
    signal: request.signal,
    header: (name) => request.headers.get(name),
    readBody: (limit, onBytes, onError) => {
      readStreamWithLimit(request.body, request.headers.get('content-length'), limit).then(onBytes, onError);
    },
    toRequest: (limit) => {
      if (limit === undefined || request.body === null) return request;
      limited ??= new Request(request, {
        body: limitBody(request.body, request.headers.get('content-length'), limit),
        duplex: 'half',
      } as RequestInit & { duplex: 'half' });
      return limited;
    },
  };
}

/**
 * A body stream that yields at most `limit` bytes: past it (or at once, when Content-Length
 * says so) it errors with a 413 and cancels the source, so nothing past the limit is buffered.
 *
 * @example
 * new Request(url, { method: 'POST', body: limitBody(source, headers.get('content-length'), 1_048_576), duplex: 'half' });
 */
export function limitBody(source: ReadableStream<Uint8Array>, contentLength: string | null, limit: number): ReadableStream<Uint8Array> {
  let seen = 0;
  const reader = source.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (contentLength !== null && Number(contentLength) > limit) {
          await reader.cancel().catch(() => undefined);
          controller.error(tooLarge(limit));
          return;
        }
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        seen += value.byteLength;
        if (seen > limit) {
          await reader.cancel().catch(() => undefined);
          controller.error(tooLarge(limit));
          return;
        }
        controller.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Reads a body stream into memory, stopping (and cancelling the stream) as soon as it passes
 * `limit` bytes, so an oversized body is never buffered past the limit.
 *
 * @example
 * const bytes = await readStreamWithLimit(request.body, request.headers.get('content-length'), 1024);
 */
export async function readStreamWithLimit(
  body: ReadableStream<Uint8Array> | null,
  contentLength: string | null,
  limit: number,
): Promise<Uint8Array> {
  if (contentLength !== null && Number(contentLength) > limit) throw tooLarge(limit);
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * The 413 error for a body over `limit` bytes.
 *
 * @example
 * throw tooLarge(1_048_576);
 */
export function tooLarge(limit: number): PayloadTooLargeException {
  return new PayloadTooLargeException(`Request body exceeds the limit of ${limit} bytes.`);
}
