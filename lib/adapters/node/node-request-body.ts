import type { IncomingMessage, ServerResponse } from 'node:http';
import { limitBody, readStreamWithLimit, tooLarge } from '../../internal/request-path.js';
import { bodyStream, collectBody, discardBody, hasBody, streamOfBytes, truncatedBody, type BodyCallback } from './node-body.js';
import { lingerWhenClosed } from './lingering-close.js';

/** Who owns the rest of the body decides what happens to it when the answer goes out. */
type BodyState =
  | 'unread'
  /** Being collected from the socket. */
  | 'reading'
  /** Fully read into memory. */
  | 'read'
  /** Handed to a web stream (toRequest().body) that has started pulling. */
  | 'streaming'
  /** Reading stopped early (413, or the web stream was cancelled): the rest is nobody's. */
  | 'abandoned'
  /** Being thrown away so the connection can be reused. */
  | 'discarding';

/** The one read of the body from the socket: how it ended once it has, and who waits for that meanwhile. */
interface SocketRead {
  ended: { readonly bytes: Uint8Array | undefined; readonly error: unknown } | undefined;
  readonly waiting: BodyCallback[];
  /** The same read as a promise, made only for a web Request built after it started. */
  promise: Promise<Uint8Array> | undefined;
}

const EMPTY = new Uint8Array(0);

/**
 * The request body of one Node request: read once from the socket (with `100 Continue` sent
 * only when someone reads), or streamed into a web Request, and whatever nobody read settled
 * when the answer goes out (thrown away to keep the connection, or the connection closed when
 * it is too big). The request view ({@link NodeIncoming}) reads through it; the writer settles it.
 */
export class NodeRequestBody {
  private state: BodyState = 'unread';
  private socketRead: SocketRead | undefined = undefined;
  private continued = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly expectContinue: boolean,
    private readonly drainLimit: number,
  ) {}

  /**
   * Reads the whole body and calls back in the event that ends it (or at once when it is empty,
   * too large by its Content-Length, or already over). A second read gets the first one's bytes.
   */
  read(limit: number, onBytes: (bytes: Uint8Array) => void, onError: (error: unknown) => void): void {
    const done: BodyCallback = (bytes, error) => {
      if (bytes === undefined) onError(error);
      else if (bytes.byteLength > limit) onError(tooLarge(limit));
      else onBytes(bytes);
    };
    const read = this.socketRead;
    if (read === undefined) this.readFromSocket(limit, done);
    else if (read.ended === undefined) read.waiting.push(done);
    else done(read.ended.bytes, read.ended.error);
  }

  /** Whether the body was (or is being) read from the socket. */
  hasRead(): boolean {
    return this.socketRead !== undefined;
  }

  /**
   * The body as a web stream for a Request: the bytes of a read already made, or the socket
   * itself (under `limit` when given), or undefined when there is no body.
   */
  stream(limit: number | undefined): ReadableStream<Uint8Array> | undefined {
    const read = this.socketRead;
    if (read !== undefined) return streamOfBytes(this.promiseOf(read));
    if (!hasBody(this.req)) return undefined;
    const stream = bodyStream(this.req, { claim: () => this.claimForStream(), abandon: () => this.abandon() });
    return limit === undefined ? stream : limitBody(stream, headerValue(this.req, 'content-length'), limit);
  }

  /** Reads a body that a web Request owns already: its stream is then the one source of the bytes. */
  static readFrom(request: Request, limit: number, onBytes: (bytes: Uint8Array) => void, onError: (error: unknown) => void): void {
    readStreamWithLimit(request.body, request.headers.get('content-length'), limit).then(onBytes, onError);
  }

  /**
   * Called by the writer just before the status line goes out: settles whatever the handler left
   * of the body so that the connection can serve the next request, and says whether the
   * connection must close instead (a body too big to throw away).
   */
  settle(): boolean {
    const req = this.req;
    const method = req.method;
    // GET and HEAD bodies are not a thing clients send; Node's own dump covers the odd one.
    if (method === 'GET' || method === 'HEAD') return false;
    const state = this.state;
    if (state !== 'unread' && state !== 'abandoned') return false;
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
    this.state = 'discarding';
    discardBody(req, this.res, this.drainLimit);
    return false;
  }

  private readFromSocket(limit: number, done: BodyCallback): void {
    const read: SocketRead = { ended: undefined, waiting: [done], promise: undefined };
    this.socketRead = read;
    const end = (bytes: Uint8Array | undefined, error: unknown) => {
      read.ended = { bytes, error };
      for (const waiter of read.waiting) waiter(bytes, error);
    };
    const req = this.req;
    const length = req.headers['content-length'];
    if (length !== undefined && Number(length) > limit) {
      this.state = 'abandoned';
      end(undefined, tooLarge(limit));
      return;
    }
    if (!hasBody(req) || req.readableEnded) {
      this.state = 'read';
      end(EMPTY, undefined);
      return;
    }
    if (req.destroyed) {
      // Its 'close' has fired already; waiting for events would wait forever.
      this.state = 'abandoned';
      end(undefined, truncatedBody());
      return;
    }
    this.sendContinue();
    this.state = 'reading';
    collectBody(req, limit, (bytes, error) => {
      if (bytes !== undefined) this.state = 'read';
      else this.abandon();
      end(bytes, error);
    });
  }

  private promiseOf(read: SocketRead): Promise<Uint8Array> {
    if (read.promise === undefined) {
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
      read.promise = promise;
    }
    return read.promise;
  }

  private claimForStream(): boolean {
    const req = this.req;
    if (this.state !== 'unread' || req.readableEnded || req.destroyed) return false;
    this.state = 'streaming';
    this.sendContinue();
    return true;
  }

  private sendContinue(): void {
    if (this.expectContinue && !this.continued) {
      this.continued = true;
      this.res.writeContinue();
    }
  }

  /** Reading stopped early; if the answer is already on its way, clean up now rather than at write time. */
  private abandon(): void {
    this.state = 'abandoned';
    if (this.res.headersSent) {
      this.state = 'discarding';
      discardBody(this.req, this.res, this.drainLimit);
    }
  }
}

function headerValue(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return typeof value === 'string' ? value : null;
}
