import { TesseraError, type RequestContext } from '../index.js';

/**
 * One Server-Sent Event. `data` that is not a string is sent as JSON.
 *
 * @example
 * await stream.send({ event: 'post-created', id: post.id, data: post });
 */
export interface SseMessage {
  readonly data: unknown;
  readonly event?: string;
  readonly id?: string;
  /** Reconnection delay the browser should use, ms. */
  readonly retry?: number;
}

/**
 * The open event stream a {@link sse} producer writes to.
 *
 * @example
 * const unsubscribe = events.on('post', (post) => void stream.send({ data: post }));
 * stream.signal.addEventListener('abort', unsubscribe);
 */
export interface SseStream {
  /** Sends an event; resolves once it is queued (never rejects after the stream closed: it is dropped). */
  send(message: SseMessage): Promise<void>;
  /** Sends a comment line (ignored by EventSource; keeps proxies from timing the stream out). */
  comment(text: string): void;
  /** Ends the stream. */
  close(): void;
  /** Aborted when the stream ends: the client went away, the server is shutting down, or close(). */
  readonly signal: AbortSignal;
}

/**
 * Options of {@link sse}.
 *
 * @example
 * sse(ctx, produce, { keepAliveMs: 30_000 });
 */
export interface SseOptions {
  /** A keep-alive comment every this many ms; default 15 000; 0 turns it off. */
  readonly keepAliveMs?: number;
}

const encoder = new TextEncoder();

function field(name: string, value: string): string {
  // A newline would end the field early and let the value inject fields or events of its own.
  if (/[\r\n]/.test(value)) throw new TesseraError('SSE_INVALID', `An SSE ${name} cannot contain a line break.`);
  return `${name}: ${value}\n`;
}

/**
 * The wire form of one event: every line of the data its own `data:` field.
 *
 * @example
 * formatSseMessage({ event: 'ping', data: 'a\nb' }); // 'event: ping\ndata: a\ndata: b\n\n'
 */
export function formatSseMessage(message: SseMessage): string {
  let out = '';
  if (message.event !== undefined) out += field('event', message.event);
  if (message.id !== undefined) out += field('id', message.id);
  if (message.retry !== undefined) out += `retry: ${Math.max(0, Math.floor(message.retry))}\n`;
  const data = typeof message.data === 'string' ? message.data : JSON.stringify(message.data);
  for (const line of (data ?? '').split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  return `${out}\n`;
}

/**
 * A Server-Sent Events answer (`text/event-stream`). `produce` gets the stream and may return at
 * once (subscribe, then return) or keep sending; the stream stays open until the client goes
 * away, the server shuts down (graceful close ends open streams) or `close()` is called, and
 * `stream.signal` tells the producer when to stop. Headers go out at once, before the first event.
 *
 * @example
 * get('/posts/events', (ctx) => sse(ctx, (stream) => {
 *   const off = posts.onCreated((post) => void stream.send({ event: 'post', data: post }));
 *   stream.signal.addEventListener('abort', off);
 * }));
 */
export function sse(ctx: Pick<RequestContext, 'signal'>, produce: (stream: SseStream) => void | Promise<void>, options: SseOptions = {}): Response {
  const ended = new AbortController();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  const finish = () => {
    if (ended.signal.aborted) return;
    ended.abort();
    if (keepAlive !== undefined) clearInterval(keepAlive);
    try {
      controller?.close();
    } catch {
      // already closed or cancelled
    }
  };
  const write = (text: string) => {
    if (ended.signal.aborted || controller === undefined) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      finish();
    }
  };
  const stream: SseStream = {
    send: async (message) => write(formatSseMessage(message)),
    comment: (text) => write(`: ${text.replace(/[\r\n]+/g, ' ')}\n\n`),
    close: finish,
    signal: ended.signal,
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      if (ctx.signal.aborted) return finish();
      ctx.signal.addEventListener('abort', finish, { once: true });
      const every = options.keepAliveMs ?? 15_000;
      if (every > 0) keepAlive = setInterval(() => stream.comment('keep-alive'), every);
      Promise.resolve()
        .then(() => produce(stream))
        .catch(() => finish());
    },
    cancel: finish,
  });
  return new Response(body, {
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' },
  });
}
