import { lingeringClose } from './lingering-close.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BadRequestException } from '../../index.js';
import { tooLarge } from '../../internal/request-path.js';

/** Whether the message carries a body; HTTP/1.1 frames one only with Content-Length or Transfer-Encoding. */
export function hasBody(req: IncomingMessage): boolean {
  const headers = req.headers;
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}

/** What a client that leaves mid-upload gets: nobody will see it, and a 4xx keeps a disconnect out of the error log. */
export function truncatedBody(): BadRequestException {
  return new BadRequestException('The request body ended before it was complete.');
}

/** Told how a body read ended: the bytes, or (bytes undefined) the error. */
export type BodyCallback = (bytes: Uint8Array | undefined, error: unknown) => void;

/**
 * Collects the body with a byte counter and calls `done` once, synchronously in the event that
 * ends it: with the bytes (no copy for a body in one chunk), or with a 413 or a truncated-body
 * 400. Past `limit` it stops listening and pauses the message at once, so the bytes beyond the
 * limit are never buffered; the caller decides what happens to the rest (see {@link discardBody}).
 *
 * Three listeners and no cleanup on success: the message is done with once it ends, and a
 * settled flag turns the 'close' that follows every end into a no-op. No 'error' listener is
 * needed: a message destroyed mid-body always emits 'close' (and emits 'error' only to listeners).
 */
export function collectBody(req: IncomingMessage, limit: number, done: BodyCallback): void {
  const chunks: Buffer[] = [];
  let total = 0;
  let settled = false;
  const onData = (chunk: Buffer) => {
    total += chunk.byteLength;
    if (total > limit) {
      settled = true;
      req.off('data', onData);
      req.pause();
      done(undefined, tooLarge(limit));
      return;
    }
    chunks.push(chunk);
  };
  req.on('data', onData);
  req.on('end', () => {
    if (settled) return;
    settled = true;
    done(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total), undefined);
  });
  req.on('close', () => {
    if (settled) return;
    settled = true;
    done(undefined, truncatedBody());
  });
}

/** Hooks through which the body stream tells its owner who holds the socket's bytes. */
export interface BodyStreamHooks {
  /** First pull: returns false when the body is gone already (discarded, or the client left). */
  claim(): boolean;
  /** The consumer cancelled before the end: the rest of the body is nobody's now. */
  abandon(): void;
}

/**
 * The body as a web stream that touches the socket only when someone reads it, with
 * backpressure: the message is paused whenever the stream's queue is full.
 */
export function bodyStream(req: IncomingMessage, hooks: BodyStreamHooks): ReadableStream<Uint8Array> {
  let attached = false;
  let finished = false;
  let onData: (chunk: Buffer) => void = () => undefined;
  let onEnd: () => void = () => undefined;
  let onFailure: () => void = () => undefined;
  const detach = () => {
    finished = true;
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onFailure);
    req.off('close', onFailure);
  };
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!attached) {
          attached = true;
          if (!hooks.claim()) {
            finished = true;
            controller.error(new TypeError('The request body is no longer available.'));
            return;
          }
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
            controller.error(truncatedBody());
          };
          req.on('data', onData);
          req.on('end', onEnd);
          req.on('error', onFailure);
          req.on('close', onFailure);
        }
        if (!finished) req.resume();
      },
      cancel() {
        if (finished) return;
        detach();
        req.pause();
        hooks.abandon();
      },
    },
    // Zero: no eager pull, so building a Request does not start reading the socket.
    { highWaterMark: 0 },
  );
}

/** A body already being read into memory, as a web stream (for a Request built after readBody). */
export function streamOfBytes(bytes: Promise<Uint8Array>): ReadableStream<Uint8Array> {
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

/** Connections reading the unread rest of an answered request's body, to throw it away. */
const discarding = new WeakSet<object>();

/**
 * Whether `socket` is throwing away the body of a request it already answered: a framing error
 * there belongs to that request, which has had its answer (see client-error.ts).
 *
 * @example
 * if (isDiscardingBody(socket)) socket.destroy();
 */
export function isDiscardingBody(socket: object): boolean {
  return discarding.has(socket);
}

/**
 * Reads and throws away the rest of a body, up to `limit` bytes, so that the keep-alive
 * connection stays usable. Past the limit the socket is closed, but only once the response is
 * out, and with a lingering close: closing earlier, or with unread bytes, could reset the
 * connection before the client reads the answer.
 */
export function discardBody(req: IncomingMessage, res: ServerResponse, limit: number): void {
  if (req.readableEnded) return;
  const connection = req.socket;
  discarding.add(connection);
  let seen = 0;
  const onData = (chunk: Buffer) => {
    seen += chunk.byteLength;
    if (seen <= limit) return;
    req.off('data', onData);
    const socket = req.socket;
    if (res.writableFinished) lingeringClose(socket);
    else res.once('finish', () => lingeringClose(socket));
  };
  const done = () => {
    discarding.delete(connection);
    req.off('data', onData);
    req.off('end', done);
  };
  req.on('data', onData);
  req.on('end', done);
  req.resume();
}
