import { BadRequestException, PayloadTooLargeException, type HttpException } from './http-exception.js';
import { parseRequestTarget, type RequestTarget } from './request-target.js';

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
   * Reads the whole body and hands it to `onBytes`, or the failure to `onError` (a 413 as soon
   * as it passes `limit` bytes, a client that left mid-body), exactly once. The callback may run
   * before this call returns (a body already known to be empty or too large) or later, in the
   * event that ends the body: the core continues the route's work right there, so an adapter
   * needs no promise between its socket and the handler.
   */
  readBody(limit: number, onBytes: (bytes: Uint8Array) => void, onError: (error: unknown) => void): void;
  /**
   * Optional: the whole body as text, for an adapter whose runtime decodes text for less than it
   * hands out bytes (Deno's `text()` costs well under `bytes()` plus a decode). Same contract as
   * `readBody` (the limit in bytes, exactly one callback) and the same decoding as every other
   * path: UTF-8, a malformed sequence becoming U+FFFD, as `Request.text()` decodes.
   */
  readText?(limit: number, onText: (text: string) => void, onError: (error: unknown) => void): void;
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
 * Builds an IncomingRequest over a web-standard Request. The client address may be given as a
 * function, called the first time someone reads it (asking Bun's server costs ~5% of a request).
 *
 * @example
 * app.handle(incomingFromRequest(request, '203.0.113.9', env), (answer) => write(answer));
 * incomingFromRequest(request, () => server.requestIP(request)?.address);
 */
export function incomingFromRequest(request: Request, clientAddress?: string | (() => string | undefined), env?: unknown, platform?: unknown): IncomingRequest {
  return new FetchIncoming(request, clientAddress, env, platform);
}

/**
 * The IncomingRequest over a web Request: one object per request with no closures, and nothing
 * read from the Request before someone asks (a runtime may build `signal` or the headers lazily).
 */
class FetchIncoming implements IncomingRequest {
  readonly method: string;
  readonly path: string;
  readonly search: string;
  readonly invalid: HttpException | undefined;
  private limited: Request | undefined = undefined;

  constructor(
    private readonly request: Request,
    private address: string | (() => string | undefined) | undefined,
    readonly env: unknown,
    readonly platform: unknown,
  ) {
    this.method = request.method;
    const target = targetOfUrl(request.url);
    if (target.kind === 'origin') {
      this.path = target.path;
      this.search = target.search;
      this.invalid = undefined;
    } else {
      this.path = '/';
      this.search = '';
      this.invalid = new BadRequestException(target.kind === 'invalid' ? target.reason : 'The request URL is not an absolute http(s) URL.');
    }
  }

  get scheme(): string {
    return this.request.url.startsWith('https:') ? 'https' : 'http';
  }

  get clientAddress(): string | undefined {
    const address = this.address;
    if (typeof address !== 'function') return address;
    const read = address();
    this.address = read;
    return read;
  }

  get signal(): AbortSignal {
    return this.request.signal;
  }

  header(name: string): string | null {
    return this.request.headers.get(name);
  }

  readBody(limit: number, onBytes: (bytes: Uint8Array) => void, onError: (error: unknown) => void): void {
    this.readBytes(declaredLength(this.request.headers.get('content-length')), limit, onBytes, onError);
  }

  /** readBody with the Content-Length already read (readText reads it first). */
  private readBytes(declared: number | undefined, limit: number, onBytes: (bytes: Uint8Array) => void, onError: (error: unknown) => void): void {
    const request = this.request;
    if (declared !== undefined && declared > limit) {
      onError(tooLarge(limit));
      return;
    }
    if (declared === undefined) {
      // `request.body` only here: on Deno, reading it makes a stream that the one-step read below
      // would then go through (measured 25 -> 21 µs CPU for a small POST when it is not touched).
      if (request.body === null) onBytes(new Uint8Array(0));
      else readStreamWithLimit(request.body, null, limit).then(onBytes, onError);
      return;
    }
    // A declared length within the limit is all a runtime lets through from the network (HTTP
    // framing), so its own one-step read is safe, and much cheaper than pulling the stream chunk
    // by chunk. The size is checked again for a Request built in code with a header that lies.
    const read = typeof request.bytes === 'function' ? request.bytes() : request.arrayBuffer().then((buffer) => new Uint8Array(buffer));
    read.then((bytes) => (bytes.byteLength > limit ? onError(tooLarge(limit)) : onBytes(bytes)), onError);
  }

  readText(limit: number, onText: (text: string) => void, onError: (error: unknown) => void): void {
    const request = this.request;
    const declared = declaredLength(request.headers.get('content-length'));
    if (declared === undefined || declared > limit) {
      // No length (a stream to count as it arrives) or one over the limit: the bytes path decides.
      this.readBytes(declared, limit, (bytes) => onText(decodeUtf8(bytes)), onError);
      return;
    }
    // As for readBody: a declared length within the limit bounds what the network lets through;
    // the size is checked again (in UTF-8 bytes) for a Request built in code whose header lies.
    request.text().then((text) => (utf8LengthExceeds(text, limit) ? onError(tooLarge(limit)) : onText(text)), onError);
  }

  toRequest(limit?: number): Request {
    const request = this.request;
    if (limit === undefined || request.body === null) return request;
    this.limited ??= new Request(request, {
      body: limitBody(request.body, request.headers.get('content-length'), limit),
      duplex: 'half',
    } as RequestInit & { duplex: 'half' });
    return this.limited;
  }
}

/**
 * The path and query of a Request's URL. The runtime has parsed and serialised it already (a
 * WHATWG URL: dot segments resolved, the path percent-encoded, a `\` in the path turned into
 * `/`), and parsing a serialised URL again gives it back unchanged, so the path and query are
 * sliced off it: what `parseRequestTarget` would return for them (property-tests/request-target
 * checks this on random targets), for a fifth of the JS time of a hello request on Bun. A
 * backslash survives in the query only, and is refused there as the Node path refuses it; a
 * fragment, which a server's request never carries, goes through the parser.
 */
function targetOfUrl(url: string): RequestTarget {
  const authority = url.startsWith('http://') ? 7 : url.startsWith('https://') ? 8 : -1;
  const pathStart = authority === -1 ? -1 : url.indexOf('/', authority);
  if (pathStart === -1) return NOT_HTTP;
  if (url.includes('#', pathStart)) return parseRequestTarget(url.slice(pathStart));
  const queryStart = url.indexOf('?', pathStart);
  if (queryStart === -1) return { kind: 'origin', path: url.slice(pathStart), search: '' };
  const search = url.slice(queryStart + 1);
  if (search.includes('\\')) return parseRequestTarget(url.slice(pathStart));
  return { kind: 'origin', path: url.slice(pathStart, queryStart), search };
}

const NOT_HTTP: RequestTarget = Object.freeze({ kind: 'invalid', reason: 'The request URL is not an absolute http(s) URL.' });

const utf8 = new TextDecoder();

/**
 * Bytes as UTF-8 text the way `Request.text()` decodes them (a malformed sequence becomes
 * U+FFFD): the one decoding of request bodies on every adapter.
 *
 * @example
 * decodeUtf8(new Uint8Array([0x68, 0x69])); // 'hi'
 */
export function decodeUtf8(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}

/**
 * Whether `text` takes more than `limit` bytes in UTF-8, counted only when its length leaves a
 * doubt: every UTF-16 unit is 1 to 3 bytes (a surrogate pair 4 for two units).
 *
 * @example
 * utf8LengthExceeds('é', 1); // true
 */
export function utf8LengthExceeds(text: string, limit: number): boolean {
  if (text.length > limit) return true;
  if (text.length * 3 <= limit) return false;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
    if (bytes > limit) return true;
  }
  return false;
}

/** A Content-Length header's value when it is a plain decimal length, else undefined. */
function declaredLength(header: string | null): number | undefined {
  if (header === null) return undefined;
  const length = Number(header);
  return header !== '' && Number.isSafeInteger(length) && length >= 0 ? length : undefined;
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
