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
  /** Reads the whole body, refusing with 413 as soon as it passes `limit` bytes. */
  readBody(limit: number): Promise<Uint8Array>;
  /**
   * Optional: reads the body as {@link readBody} does, but calls `onBytes` (or `onError`)
   * synchronously the moment the body is complete (or has failed), and settles the returned
   * promise with its result, or rejects it with what the callback threw. Without it the core
   * uses `readBody(limit).then(onBytes, onError)`; with it, the route's work runs as the body
   * ends rather than one promise reaction later. An adapter may write the callback's result
   * itself when the app hands this very promise back as its answer, and then leave the promise
   * unsettled: code that returns it must not also wait on it for side effects.
   */
  readBodyThen?<T>(limit: number, onBytes: (bytes: Uint8Array) => T, onError: (error: unknown) => T): Promise<Awaited<T>>;
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
 * await app.handle(incomingFromRequest(request, '203.0.113.9', env));
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
    readBody: (limit) => readStreamWithLimit(request.body, request.headers.get('content-length'), limit),
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
