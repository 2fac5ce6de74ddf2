import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Answer, PlainAnswer } from '../../index.js';
import type { Logger } from '../../index.js';

/**
 * What the writer needs besides the response: whether it answers a HEAD (headers only), and the
 * request body, whose rest it settles right before the status line goes out (the settling says
 * whether the connection must close: a body too big to drop). NodeIncoming has both.
 */
export interface WriteContext {
  readonly head: boolean;
  readonly body: { settle(): boolean };
}

const INTERNAL_ERROR_BODY = JSON.stringify({ type: 'about:blank', title: 'Internal Server Error', status: 500 });

/** Statuses whose response has no body, so no Content-Length either. */
function mayHaveBody(status: number): boolean {
  return status >= 200 && status !== 204 && status !== 304;
}

/**
 * Streams being written, each with a function that ends it cleanly: the producer is cancelled
 * (told to stop) and the response gets its final chunk. Graceful shutdown calls them.
 */
export type OpenStreams = Set<() => void>;

/**
 * Writes an answer to the socket. A PlainAnswer is one `writeHead` and one `end`; a web
 * Response is streamed from its body. Returns a promise only when streaming.
 */
export function writeAnswer(
  res: ServerResponse,
  answer: Answer,
  request: WriteContext,
  closing: boolean,
  logger: Logger,
  streams?: OpenStreams,
): void | Promise<void> {
  // Taken already: the connection broke under this request and was answered for it (a framing
  // error in its body, see client-error.ts).
  const taken = res.headersSent;
  if (answer instanceof Response) {
    if (res.destroyed || taken) {
      // The client left while the handler worked: let the producer stop.
      answer.body?.cancel().catch(() => undefined);
      return;
    }
    return writeResponse(res, answer, request, closing, logger, streams);
  }
  if (res.destroyed || taken) return;
  writePlain(res, answer, request.body.settle() || closing, request.head);
}

function writePlain(res: ServerResponse, answer: PlainAnswer, close: boolean, head: boolean): void {
  const body = answer.body;
  const status = answer.status;
  if (body !== null) {
    const headers: OutgoingHttpHeaders = { ...answer.headers, 'content-length': Buffer.byteLength(body) };
    if (close) headers.connection = 'close';
    res.writeHead(status, headers);
    res.end(body);
    return;
  }
  if (!close && (head || !mayHaveBody(status))) {
    res.writeHead(status, answer.headers);
  } else {
    const headers: OutgoingHttpHeaders = { ...answer.headers };
    // Without a length Node would frame an empty body as chunked; HEAD keeps its unknown length.
    if (!head && mayHaveBody(status)) headers['content-length'] = 0;
    if (close) headers.connection = 'close';
    res.writeHead(status, headers);
  }
  res.end();
}

/**
 * Writes the 500 problem for an unexpected failure, or cuts the connection when the status line
 * is already out (the client must not take a truncated answer for a complete one).
 */
export function writeInternalError(res: ServerResponse): void {
  if (res.headersSent || res.writableEnded) {
    res.destroy();
    return;
  }
  // Anything a half-done writer staged must not leak into the error answer.
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  res.writeHead(500, {
    'content-type': 'application/problem+json',
    'content-length': Buffer.byteLength(INTERNAL_ERROR_BODY),
  });
  res.end(INTERNAL_ERROR_BODY);
}

function nodeHeaders(headers: Headers): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of headers) if (name !== 'set-cookie') out[name] = value;
  // Iteration would fold cookies into one line; each Set-Cookie must stay its own header.
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) out['set-cookie'] = cookies;
  return out;
}

/** Resolves after a few microtask turns: long enough for a body that is already in memory to report its end. */
function shortly(): Promise<undefined> {
  return Promise.resolve()
    .then(() => undefined)
    .then(() => undefined);
}

function checkChunk(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  // fetch runtimes reject these too; accepting them here would make Node the odd one out.
  throw new TypeError('A Response body stream must produce Uint8Array chunks.');
}

async function writeResponse(
  res: ServerResponse,
  response: Response,
  request: WriteContext,
  closing: boolean,
  logger: Logger,
  streams: OpenStreams | undefined,
): Promise<void> {
  const status = response.status;
  const head = request.head;
  const headers = nodeHeaders(response.headers);
  const body = response.body;
  // Settled at the last moment: by the first read, a response that streams the request body
  // (new Response(ctx.request.body)) has claimed it, and it must not be drained from under it.
  const writeHead = () => {
    if (request.body.settle() || closing) headers.connection = 'close';
    res.writeHead(status, headers);
  };
  if (body === null || head) {
    if (body !== null) body.cancel().catch(() => undefined);
    if (!head && mayHaveBody(status) && headers['content-length'] === undefined) headers['content-length'] = 0;
    writeHead();
    res.end();
    return;
  }

  const reader = body.getReader();
  let pending: Promise<ReadableStreamReadResult<Uint8Array>>;
  try {
    pending = reader.read();
    // A stream whose first chunk is not ready at once (SSE, a slow producer): the status line and
    // headers go out now, so the client sees the answer open before the first event.
    const ready = await Promise.race([pending, shortly()]);
    if (ready === undefined) {
      writeHead();
      res.flushHeaders();
      await pump(reader, pending, res, logger, streams);
      return;
    }
    const first = ready;
    if (first.done) {
      if (mayHaveBody(status) && headers['content-length'] === undefined) headers['content-length'] = 0;
      writeHead();
      res.end();
      return;
    }
    const firstChunk = checkChunk(first.value);
    // A body that was already whole (new Response('text'), Response.json) ends within a few
    // microtasks: send it with a Content-Length in one write instead of chunked framing.
    pending = reader.read();
    const second = await Promise.race([pending, shortly()]);
    if (second?.done === true) {
      if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) {
        headers['content-length'] = firstChunk.byteLength;
      }
      writeHead();
      res.end(firstChunk);
      return;
    }
    writeHead();
    res.write(firstChunk);
    if (second !== undefined) {
      res.write(checkChunk(second.value));
      pending = reader.read();
    }
  } catch (error) {
    reader.cancel(error).catch(() => undefined);
    logger.error({ err: error }, 'A Response body stream failed');
    writeInternalError(res);
    return;
  }
  await pump(reader, pending, res, logger, streams);
}

/** Copies the rest of the stream with backpressure; stops and cancels the producer when the client leaves. */
async function pump(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  pending: Promise<ReadableStreamReadResult<Uint8Array>>,
  res: ServerResponse,
  logger: Logger,
  streams: OpenStreams | undefined,
): Promise<void> {
  let gone = res.destroyed;
  let wake: (() => void) | undefined;
  const onClose = () => {
    gone = true;
    wake?.();
    // Resolves the read in flight with `done`, and tells the producer to stop.
    reader.cancel().catch(() => undefined);
  };
  if (gone) {
    reader.cancel().catch(() => undefined);
    return;
  }
  // Shutdown: the producer is told to stop and the client gets a complete (ended) response.
  const stop = () => {
    if (gone) return;
    gone = true;
    wake?.();
    reader.cancel(new DOMException('The server is shutting down.', 'AbortError')).catch(() => undefined);
    res.end();
  };
  res.once('close', onClose);
  streams?.add(stop);
  try {
    let result = await pending;
    for (;;) {
      if (gone) return;
      if (result.done) {
        res.end();
        return;
      }
      if (!res.write(checkChunk(result.value))) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          res.once('drain', resolve);
        });
        if (wake !== undefined) res.off('drain', wake);
        wake = undefined;
        if (gone) return;
      }
      result = await reader.read();
    }
  } catch (error) {
    if (gone) return;
    logger.error({ err: error }, 'A Response body stream failed after the response started');
    reader.cancel(error).catch(() => undefined);
    // Chunked framing never gets its last chunk, so the client sees an incomplete response.
    res.destroy();
  } finally {
    res.off('close', onClose);
    streams?.delete(stop);
  }
}
