import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { BadRequestException } from '../../http/http-exception.js';
import { readStreamWithLimit, splitUrl, tooLarge, type IncomingRequest } from '../../http/incoming-request.js';

/** Default for {@link NodeIncomingOptions.drainLimit}: 1 MiB. */
export const DEFAULT_DRAIN_LIMIT = 1_048_576;

/**
 * Options of {@link incomingFromNodeRequest}.
 *
 * @example
 * incomingFromNodeRequest(req, res, { drainLimit: 64 * 1024 });
 */
export interface NodeIncomingOptions {
  /**
   * The request came through the server's `checkContinue` event: `100 Continue` is sent only
   * when something reads the body, so a body refused up front (413 from Content-Length) is never
   * uploaded. Default false.
   */
  readonly expectContinue?: boolean;
  /**
   * Bytes of an unread or refused request body the server will read and throw away to keep a
   * keep-alive connection usable. A larger body closes the connection instead. Default 1 MiB.
   */
  readonly drainLimit?: number;
}

/** What happened to the body: who owns the socket's bytes decides what happens at response time. */
type BodyState =
  | 'unread'
  /** readBody is collecting it. */
  | 'reading'
  /** Fully read into memory by readBody. */
  | 'read'
  /** Handed to a web stream (toRequest().body) that has started pulling. */
  | 'streaming'
  /** Reading stopped early (413, or the web stream was cancelled): the rest is nobody's. */
  | 'abandoned'
  /** Being thrown away so the connection can be reused. */
  | 'discarding';

const EMPTY = new Uint8Array(0);

/** Host header: reg-name, IPv4 or [IPv6], optional port; nothing that could move the path. */
const VALID_HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(?::\d{0,5})?$/;

function clientGone(): DOMException {
  return new DOMException('The client closed the connection before the response was complete.', 'AbortError');
}

/** Whether the message carries a body; HTTP/1.1 frames one only with Content-Length or Transfer-Encoding. */
function hasBody(req: IncomingMessage): boolean {
  const headers = req.headers;
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}

/**
 * The core's IncomingRequest over a Node `IncomingMessage`. Everything the router needs (method,
 * raw path and query) is sliced from `req.url`; headers are read from `req.headers`; a web
 * Request, an AbortController and the client-gone listener exist only if someone asks.
 */
export class NodeIncoming implements IncomingRequest {
  readonly method: string;
  readonly path: string;
  readonly search: string;
  private controller: AbortController | undefined = undefined;
  private request: Request | undefined = undefined;
  private bodyState: BodyState = 'unread';
  private bodyPromise: Promise<Uint8Array> | undefined = undefined;
  private continued = false;
  private readonly expectContinue: boolean;
  private readonly drainLimit: number;

  constructor(
    readonly raw: IncomingMessage,
    readonly response: ServerResponse,
    options?: NodeIncomingOptions,
  ) {
    this.method = raw.method ?? 'GET';
    this.expectContinue = options?.expectContinue ?? false;
    this.drainLimit = options?.drainLimit ?? DEFAULT_DRAIN_LIMIT;
    const url = raw.url ?? '/';
    if (url.charCodeAt(0) === 47 /* '/' */) {
      const query = url.indexOf('?');
      this.path = query === -1 ? url : url.slice(0, query);
      this.search = query === -1 ? '' : url.slice(query + 1);
    } else if (url.startsWith('http://') || url.startsWith('https://')) {
      // absolute-form, as sent to proxies
      const parts = splitUrl(url);
      this.path = parts.path;
      this.search = parts.search;
    } else {
      // asterisk-form (`OPTIONS *`): no route can match it, and it must not look like '/'.
      this.path = url;
      this.search = '';
    }
  }

  get clientAddress(): string | undefined {
    return this.raw.socket.remoteAddress;
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      const controller = new AbortController();
      this.controller = controller;
      const res = this.response;
      // `req` emits 'close' once its body is consumed, so only the response says whether the
      // client left before the answer was complete.
      if (!res.writableFinished) {
        if (res.destroyed) controller.abort(clientGone());
        else res.once('close', () => res.writableFinished || controller.abort(clientGone()));
      }
    }
    return this.controller.signal;
  }

  header(name: string): string | null {
    const value = this.raw.headers[name];
    if (typeof value === 'string') return value;
    // Arrays only for repeated headers Node does not join itself; anything else is a prototype key.
    return Array.isArray(value) ? value.join(', ') : null;
  }

  readBody(limit: number): Promise<Uint8Array> {
    if (this.request !== undefined) {
      return readStreamWithLimit(this.request.body, this.header('content-length'), limit);
    }
    if (this.bodyPromise !== undefined) {
      return this.bodyPromise.then((bytes) => {
        if (bytes.byteLength > limit) throw tooLarge(limit);
        return bytes;
      });
    }
    this.bodyPromise = this.readFromSocket(limit);
    return this.bodyPromise;
  }

  toRequest(): Request {
    if (this.request !== undefined) return this.request;
    const req = this.raw;
    const headers = new Headers();
    const raw = req.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
    const init: RequestInit & { duplex?: 'half' } = { method: this.method, headers, signal: this.signal };
    if (this.method !== 'GET' && this.method !== 'HEAD' && (this.bodyPromise !== undefined || hasBody(req))) {
      init.body = this.bodyPromise !== undefined ? streamOfPromise(this.bodyPromise) : this.socketStream();
      init.duplex = 'half';
    }
    try {
      this.request = new Request(this.absoluteUrl(), init);
    } catch (error) {
      // An unusable Host header or a method fetch refuses (TRACE): the client's fault, not a 500.
      throw new BadRequestException(error instanceof Error ? error.message : 'The request cannot be represented as a web Request.');
    }
    return this.request;
  }

  /**
   * Called by the response writer just before the status line goes out. Settles whatever the
   * handler left of the request body so that the connection can serve the next request, and
   * says whether the connection must close instead (a body too big to throw away).
   */
  prepareForResponse(): boolean {
    const req = this.raw;
    const method = this.method;
    // GET and HEAD bodies are not a thing clients send; Node's own dump covers the odd one.
    if (method === 'GET' || method === 'HEAD') return false;
    const state = this.bodyState;
    if (state === 'read' || state === 'reading' || state === 'streaming' || state === 'discarding') {
      return false;
    }
    if (req.readableEnded || !hasBody(req)) return false;
    // Node already closes a connection whose 100-continue was never sent: the body never came.
    if (this.expectContinue && !this.continued) return false;
    const length = req.headers['content-length'];
    if (length !== undefined && Number(length) > this.drainLimit) return true;
    this.discardBody();
    return false;
  }

  private async readFromSocket(limit: number): Promise<Uint8Array> {
    const req = this.raw;
    const length = req.headers['content-length'];
    if (length !== undefined && Number(length) > limit) {
      this.bodyState = 'abandoned';
      throw tooLarge(limit);
    }
    if (!hasBody(req) || req.readableEnded) {
      this.bodyState = 'read';
      return EMPTY;
    }
    if (req.destroyed) {
      // Its 'close' has fired already; waiting for events would wait forever.
      this.bodyState = 'abandoned';
      throw new BadRequestException('The request body ended before it was complete.');
    }
    this.sendContinue();
    this.bodyState = 'reading';
    return new Promise<Uint8Array>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let total = 0;
      const cleanup = () => {
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('error', onFailure);
        req.off('close', onFailure);
      };
      const onData = (chunk: Buffer) => {
        total += chunk.byteLength;
        if (total > limit) {
          // Stop here: the bytes already held are dropped and the socket stops being read.
          cleanup();
          req.pause();
          this.abandonBody();
          reject(tooLarge(limit));
          return;
        }
        chunks.push(chunk);
      };
      const onEnd = () => {
        cleanup();
        this.bodyState = 'read';
        resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total));
      };
      const onFailure = () => {
        cleanup();
        this.bodyState = 'abandoned';
        // The client went away mid-upload. Nobody will see this answer; a 4xx keeps it out of
        // the error log, where a client's disconnect does not belong.
        reject(new BadRequestException('The request body ended before it was complete.'));
      };
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('error', onFailure);
      req.on('close', onFailure);
    });
  }

  /** The body as a web stream that touches the socket only when someone reads it. */
  private socketStream(): ReadableStream<Uint8Array> {
    const req = this.raw;
    let attached = false;
    let finished = false;
    let onData: (chunk: Buffer) => void = () => undefined;
    let onEnd: () => void = () => undefined;
    let onFailure: (error?: unknown) => void = () => undefined;
    const detach = () => {
      finished = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onFailure);
      req.off('close', onFailure);
    };
    return new ReadableStream<Uint8Array>(
      {
        pull: (controller) => {
          if (!attached) {
            attached = true;
            if (this.bodyState === 'discarding' || this.bodyState === 'abandoned' || req.readableEnded || req.destroyed) {
              finished = true;
              controller.error(new TypeError('The request body is no longer available.'));
              return;
            }
            this.bodyState = 'streaming';
            this.sendContinue();
            onData = (chunk) => {
              controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
              if ((controller.desiredSize ?? 0) <= 0) req.pause();
            };
            onEnd = () => {
              detach();
              controller.close();
            };
            onFailure = () => {
              if (finished) return;
              detach();
              controller.error(new BadRequestException('The request body ended before it was complete.'));
            };
            req.on('data', onData);
            req.on('end', onEnd);
            req.on('error', onFailure);
            req.on('close', onFailure);
          }
          if (!finished) req.resume();
        },
        cancel: () => {
          if (finished) return;
          detach();
          req.pause();
          this.abandonBody();
        },
      },
      // Zero: no eager pull, so building the Request does not start reading the socket.
      { highWaterMark: 0 },
    );
  }

  private absoluteUrl(): string {
    const req = this.raw;
    const url = req.url ?? '/';
    if (url.startsWith('http://') || url.startsWith('https://')) return url;
    const socket = req.socket as Socket & { encrypted?: boolean };
    const scheme = socket.encrypted === true ? 'https' : 'http';
    let host = req.headers.host;
    if (host === undefined || host === '') {
      // HTTP/1.0 clients may omit Host; the address they reached is the honest fallback.
      const local = socket.localAddress ?? '127.0.0.1';
      host = `${local.includes(':') ? `[${local}]` : local}:${socket.localPort ?? 80}`;
    } else if (!VALID_HOST.test(host)) {
      // `Host: evil.test/x?` would otherwise move the path the handler sees away from the routed one.
      throw new BadRequestException('The Host header is not a valid host.');
    }
    return `${scheme}://${host}${url.charCodeAt(0) === 47 ? url : '/'}`;
  }

  private sendContinue(): void {
    if (this.expectContinue && !this.continued) {
      this.continued = true;
      this.response.writeContinue();
    }
  }

  /** Reading stopped early; if the answer is already on its way, clean up now rather than at write time. */
  private abandonBody(): void {
    this.bodyState = 'abandoned';
    if (this.response.headersSent) this.discardBody();
  }

  /**
   * Reads and throws away the rest of the body, up to `drainLimit` bytes, so that the
   * keep-alive connection stays usable. Past the limit the socket is closed once the response
   * is out (closing earlier could reset the connection before the client reads the answer).
   */
  private discardBody(): void {
    const req = this.raw;
    const res = this.response;
    this.bodyState = 'discarding';
    if (req.readableEnded) return;
    let seen = 0;
    const limit = this.drainLimit;
    const onData = (chunk: Buffer) => {
      seen += chunk.byteLength;
      if (seen <= limit) return;
      req.off('data', onData);
      req.pause();
      const socket = req.socket;
      if (res.writableFinished) socket.destroy();
      else res.once('close', () => socket.destroy());
    };
    const done = () => {
      req.off('data', onData);
      req.off('end', done);
    };
    req.on('data', onData);
    req.on('end', done);
    req.resume();
  }
}

function streamOfPromise(bytes: Promise<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const value = await bytes;
          if (value.byteLength > 0) controller.enqueue(value);
          controller.close();
        } catch (error) {
          controller.error(error);
        }
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Builds the core's IncomingRequest over a Node request/response pair, for custom servers.
 * No web Request is built unless `toRequest()` is called.
 *
 * @example
 * import { createServer } from 'node:http';
 * createServer(async (req, res) => {
 *   const outcome = await app.handle(incomingFromNodeRequest(req, res));
 *   // ...write outcome, or use createRequestListener(app) which does all of this
 * });
 */
export function incomingFromNodeRequest(req: IncomingMessage, res: ServerResponse, options?: NodeIncomingOptions): IncomingRequest {
  return new NodeIncoming(req, res, options);
}
