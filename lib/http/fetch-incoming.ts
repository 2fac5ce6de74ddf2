import { BadRequestException, type HttpException } from './http-exception.js';
import { declaredLength, limitBody, readStreamWithLimit, tooLarge } from './body-limit.js';
import type { IncomingRequest } from './incoming-request.js';
import { parseRequestTarget, type RequestTarget } from './request-target.js';
import { mayRouteNatively } from './native-target.js';

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
 * The request view of a request a runtime's own router has already matched (Bun's native
 * routes), or undefined when {@link mayRouteNatively} says no (a `%` in the path, a `\` or a `#`): those need the
 * checks and the decoding of Tessera's router (the caller serves it with {@link incomingFromRequest}). Without
 * them the target is a valid origin-form one, so the path and query are sliced off the URL only
 * when someone reads them.
 *
 * @example
 * const incoming = incomingOfRoutedRequest(request, () => server.requestIP(request)?.address);
 */
export function incomingOfRoutedRequest(request: Request, clientAddress?: string | (() => string | undefined), env?: unknown, platform?: unknown): IncomingRequest | undefined {
  const url = request.url;
  return mayRouteNatively(url) ? new FetchIncoming(request, clientAddress, env, platform, url) : undefined;
}

/**
 * The IncomingRequest over a web Request: one object per request with no closures, and nothing
 * read from the Request before someone asks (a runtime may build `signal` or the headers lazily).
 */
class FetchIncoming implements IncomingRequest {
  readonly method: string;
  readonly invalid: HttpException | undefined;
  /** Undefined until sliced off `routedUrl` (a routed request's view); set at once otherwise. */
  private pathPart: string | undefined;
  private searchPart = '';
  private limited: Request | undefined = undefined;

  constructor(
    private readonly request: Request,
    private address: string | (() => string | undefined) | undefined,
    readonly env: unknown,
    readonly platform: unknown,
    /** The URL of a request already routed and checked (see incomingOfRoutedRequest). */
    private readonly routedUrl?: string,
  ) {
    this.method = request.method;
    if (routedUrl !== undefined) {
      this.invalid = undefined;
      return;
    }
    const target = targetOfUrl(request.url);
    if (target.kind === 'origin') {
      this.pathPart = target.path;
      this.searchPart = target.search;
      this.invalid = undefined;
    } else {
      this.pathPart = '/';
      this.invalid = new BadRequestException(target.kind === 'invalid' ? target.reason : 'The request URL is not an absolute http(s) URL.');
    }
  }

  get path(): string {
    if (this.pathPart === undefined) this.sliceRoutedUrl();
    return this.pathPart as string;
  }

  get search(): string {
    if (this.pathPart === undefined) this.sliceRoutedUrl();
    return this.searchPart;
  }

  private sliceRoutedUrl(): void {
    const target = targetOfUrl(this.routedUrl as string);
    // incomingOfRoutedRequest let through only URLs that are origin-form targets.
    if (target.kind !== 'origin') throw new Error(`A routed request's URL is not an origin-form target: ${target.kind}`);
    this.pathPart = target.path;
    this.searchPart = target.search;
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

  /**
   * The bytes, never `text()`: a runtime's text() turns a malformed sequence into U+FFFD, and
   * which bytes a U+FFFD stood for is then lost (the client may have sent EF BF BD itself), so
   * the JSON body reader decodes these bytes itself and refuses what is not UTF-8.
   */
  readBody(limit: number, onBytes: (bytes: Uint8Array) => void, onError: (error: unknown) => void): void {
    const request = this.request;
    const declared = declaredLength(request.headers.get('content-length'));
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
