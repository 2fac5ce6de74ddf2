import type { IncomingMessage, ServerResponse } from 'node:http';
import { BadRequestException, type HttpException } from '../../internal.js';
import { limitBody, readStreamWithLimit, tooLarge, type IncomingRequest, type Answer } from '../../internal.js';
import { bodyStream, collectBody, discardBody, hasBody, streamOfBytes, truncatedBody, type BodyCallback } from './node-body.js';
import { lingerWhenClosed } from './lingering-close.js';
import { absoluteUrl, readNodeTarget, type NodeTarget } from './request-target.js';

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

/** Who owns the rest of the body decides what happens to it when the response goes out. */
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

/** Writes an answer (waiting for it if it is a promise) or a failure; the Node listener's, handed over by {@link NodeIncoming.answerFromBody}. */
export interface AnswerWriter {
  answer(incoming: NodeIncoming, outcome: Answer | Promise<Answer>): void;
  fail(response: ServerResponse, error: unknown): void;
}

/** The promise readBodyThen returned while its body is read, and the writer that claimed it, if any. */
interface PendingAnswer {
  readonly promise: Promise<unknown>;
  writer: AnswerWriter | undefined;
}

/** A read of the body from the socket: how it ended once it has, and who waits for that meanwhile. */
interface SocketRead {
  ended: { readonly bytes: Uint8Array | undefined; readonly error: unknown } | undefined;
  readonly waiting: BodyCallback[];
}

function clientGone(): DOMException {
  return new DOMException('The client closed the connection before the response was complete.', 'AbortError');
}

/**
 * The core's IncomingRequest over a Node `IncomingMessage`. Everything the router needs (method,
 * raw path and query) is sliced from `req.url`; headers are read from `req.headers`; a web
 * Request, an AbortController and the client-gone listener exist only if someone asks.
 */
export class NodeIncoming implements IncomingRequest {
  readonly method: string;
  /** A HEAD request: the writer sends headers only. */
  readonly head: boolean;
  readonly path: string;
  readonly search: string;
  readonly invalid: HttpException | undefined;
  private readonly target: NodeTarget;
  private controller: AbortController | undefined = undefined;
  private request: Request | undefined = undefined;
  private bodyState: BodyState = 'unread';
  /** The first body read as a promise, made only when someone asks for one. */
  private bodyPromise: Promise<Uint8Array> | undefined = undefined;
  private socketRead: SocketRead | undefined = undefined;
  private pendingAnswer: PendingAnswer | undefined = undefined;
  private continued = false;
  private readonly expectContinue: boolean;
  private readonly drainLimit: number;

  constructor(
    readonly raw: IncomingMessage,
    readonly response: ServerResponse,
    options?: NodeIncomingOptions,
  ) {
    this.method = raw.method ?? 'GET';
    this.head = this.method === 'HEAD';
    this.expectContinue = options?.expectContinue ?? false;
    this.drainLimit = options?.drainLimit ?? DEFAULT_DRAIN_LIMIT;
    const target = readNodeTarget(raw);
    this.target = target;
    this.path = target.path;
    this.search = target.search;
    this.invalid = target.invalid;
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
    const first = this.firstRead();
    if (first !== undefined) {
      return first.then((bytes) => {
        if (bytes.byteLength > limit) throw tooLarge(limit);
        return bytes;
      });
    }
    // Once a Request exists, its body stream is the one source of truth for the bytes.
    this.bodyPromise =
      this.request !== undefined
        ? readStreamWithLimit(this.request.body, this.header('content-length'), limit)
        : new Promise<Uint8Array>((resolve, reject) => this.readFromSocket(limit, (bytes, error) => (bytes !== undefined ? resolve(bytes) : reject(error))));
    return this.bodyPromise;
  }

  /**
   * The first read from the socket calls back as the body ends, with no promise in between; any
   * other read (a second one, or one after a Request was built) takes the promise path.
   */
  readBodyThen<T>(limit: number, onBytes: (bytes: Uint8Array) => T, onError: (error: unknown) => T): Promise<Awaited<T>> {
    if (this.bodyPromise !== undefined || this.socketRead !== undefined || this.request !== undefined) {
      return this.readBody(limit).then(onBytes, onError) as Promise<Awaited<T>>;
    }
    let resolve!: (value: Awaited<T>) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<Awaited<T>>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const pending: PendingAnswer = { promise, writer: undefined };
    this.pendingAnswer = pending;
    this.readFromSocket(limit, (bytes, error) => {
      this.pendingAnswer = undefined;
      let result: T;
      try {
        result = bytes !== undefined ? onBytes(bytes) : onError(error);
      } catch (thrown) {
        if (pending.writer === undefined) reject(thrown);
        else pending.writer.fail(this.response, thrown);
        return;
      }
      // Resolving with a callback's promise adopts it, hence Awaited<T>. A claimed promise is left
      // unsettled: the writer holds its only reference.
      if (pending.writer === undefined) resolve(result as Awaited<T>);
      else pending.writer.answer(this, result as Answer | Promise<Answer>);
    });
    return promise;
  }

  /**
   * The Node listener's fast path for a JSON body route. When the promise the app answered with
   * is the very one {@link readBodyThen} made, and its body is still being read, the answer the
   * body's callback returns is the app's answer: the writer takes it straight from the end of the
   * body, with no promise reaction in between (one reaction costs ~4% of a small POST's CPU). The
   * promise is then left unsettled: the caller, who got it from the app, holds the only
   * reference. Returns false otherwise (another promise, or the body has already ended), and the
   * caller waits on the promise as usual.
   */
  answerFromBody(outcome: Promise<Answer>, writer: AnswerWriter): boolean {
    const pending = this.pendingAnswer;
    if (pending === undefined || pending.promise !== outcome || pending.writer !== undefined) return false;
    pending.writer = writer;
    return true;
  }

  /** The promise of the first read, made from a callback read on demand; undefined before any read. */
  private firstRead(): Promise<Uint8Array> | undefined {
    const read = this.socketRead;
    if (this.bodyPromise === undefined && read !== undefined) {
      const ended = read.ended;
      const promise =
        ended === undefined
          ? new Promise<Uint8Array>((resolve, reject) => read.waiting.push((bytes, error) => (bytes !== undefined ? resolve(bytes) : reject(error))))
          : ended.bytes !== undefined
            ? Promise.resolve(ended.bytes)
            : Promise.reject(ended.error);
      // The callback reader has handled a failure already; a Request built later whose body is
      // never read must not turn it into an unhandled rejection.
      promise.catch(() => undefined);
      this.bodyPromise = promise;
    }
    return this.bodyPromise;
  }

  toRequest(bodyLimit?: number): Request {
    if (this.request !== undefined) return this.request;
    const req = this.raw;
    const headers = new Headers();
    const raw = req.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
    const init: RequestInit & { duplex?: 'half' } = { method: this.method, headers, signal: this.signal };
    const read = this.firstRead();
    if (this.method !== 'GET' && this.method !== 'HEAD' && (read !== undefined || hasBody(req))) {
      init.body =
        read !== undefined ? streamOfBytes(read) : bodyStream(req, { claim: () => this.claimForStream(), abandon: () => this.abandonBody() });
      if (bodyLimit !== undefined && read === undefined) init.body = limitBody(init.body as ReadableStream<Uint8Array>, this.header('content-length'), bodyLimit);
      init.duplex = 'half';
    }
    try {
      this.request = new Request(absoluteUrl(req, this.target), init);
    } catch (error) {
      if (error instanceof BadRequestException) throw error;
      // A method fetch refuses (TRACE) or a URL it cannot parse: the client's fault, not a 500.
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
    const method = this.method;
    // GET and HEAD bodies are not a thing clients send; Node's own dump covers the odd one.
    if (method === 'GET' || method === 'HEAD') return false;
    const state = this.bodyState;
    if (state !== 'unread' && state !== 'abandoned') return false;
    const req = this.raw;
    if (req.readableEnded || !hasBody(req)) return false;
    // Node already closes a connection whose 100-continue was never sent: the body never came.
    if (this.expectContinue && !this.continued) return false;
    const length = req.headers['content-length'];
    if (length !== undefined && Number(length) > this.drainLimit) {
      // Too big to keep the connection for: answer with `Connection: close`, then close without
      // resetting it before the client has read the answer (a lingering close).
      lingerWhenClosed(req.socket);
      return true;
    }
    this.bodyState = 'discarding';
    discardBody(req, this.response, this.drainLimit);
    return false;
  }

  /** Reads the body from the socket once; `done` (and whoever waits by then) hears how it ended. */
  private readFromSocket(limit: number, done: BodyCallback): void {
    const read: SocketRead = { ended: undefined, waiting: [done] };
    this.socketRead = read;
    const end = (bytes: Uint8Array | undefined, error: unknown) => {
      read.ended = { bytes, error };
      for (const waiter of read.waiting) waiter(bytes, error);
    };
    const req = this.raw;
    const length = req.headers['content-length'];
    if (length !== undefined && Number(length) > limit) {
      this.bodyState = 'abandoned';
      end(undefined, tooLarge(limit));
      return;
    }
    if (!hasBody(req) || req.readableEnded) {
      this.bodyState = 'read';
      end(EMPTY, undefined);
      return;
    }
    if (req.destroyed) {
      // Its 'close' has fired already; waiting for events would wait forever.
      this.bodyState = 'abandoned';
      end(undefined, truncatedBody());
      return;
    }
    this.sendContinue();
    this.bodyState = 'reading';
    collectBody(req, limit, (bytes, error) => {
      if (bytes !== undefined) this.bodyState = 'read';
      else this.abandonBody();
      end(bytes, error);
    });
  }

  private claimForStream(): boolean {
    const req = this.raw;
    if (this.bodyState !== 'unread' || req.readableEnded || req.destroyed) return false;
    this.bodyState = 'streaming';
    this.sendContinue();
    return true;
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
    if (this.response.headersSent) {
      this.bodyState = 'discarding';
      discardBody(this.raw, this.response, this.drainLimit);
    }
  }
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
