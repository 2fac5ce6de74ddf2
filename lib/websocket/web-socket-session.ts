import type { RequestContext, StateKey } from '../context/request-context.js';
import type { WebSocketConnection, WebSocketSpec } from '../routing/web-socket-spec.js';
import type { WebSocketEvents, WebSocketPort } from './web-socket-port.js';
import { utf8LengthExceeds } from '../http/utf8.js';
import { unrefTimer } from '../common/unref-timer.js';
import { Context } from '../context/request-context.js';
import { CREDENTIAL_EXPIRES_AT } from './credential-expiry.js';
import type { IdleWatched } from './idle-sweep.js';
import type { Schema } from '../context/route-info.js';
import { compileSchemaParser, type SchemaParser, type SchemaParseResult } from '../schema/schema-parser.js';
import type { HubSocket, PendingWebSocket, SessionHub } from './session-roles.js';

/** How long a closing handshake may take before the socket is dropped. */
const CLOSE_TIMEOUT_MS = 5_000;
/** A client that let the send queue overflow is not reading: it gets this long for the close frame. */
const OVERFLOW_CLOSE_TIMEOUT_MS = 1_000;
const DRAIN_POLL_MS = 10;
/** setTimeout's longest delay; a later expiry is checked again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Close codes a handler may send (RFC 6455 7.4: the protocol's own, and 3000-4999 for applications). */
function sendableCode(code: number): boolean {
  return code === 1000 || code === 1001 || code === 1003 || (code >= 1007 && code <= 1011) || (code >= 3000 && code <= 4999);
}

/** One parser per message schema, shared by the route's connections. */
const messageParsers = new WeakMap<Schema, SchemaParser>();
function messageParser(schema: Schema): SchemaParser {
  let parse = messageParsers.get(schema);
  if (parse === undefined) messageParsers.set(schema, (parse = compileSchemaParser(schema)));
  return parse;
}

let sessions = 0;

/**
 * The part of a session that only some connections use, in one object made on first use: an
 * idle socket of a plain route never needs any of it, and seven fields fewer on every session is
 * ~56 bytes per held connection.
 */
class SessionExtras {
  aborter: AbortController | undefined = undefined;
  topics: Set<string> | undefined = undefined;
  closeTimer: ReturnType<typeof setTimeout> | undefined = undefined;
  drainTimer: ReturnType<typeof setInterval> | undefined = undefined;
  expiryTimer: ReturnType<typeof setTimeout> | undefined = undefined;
  drainWaiters: (() => void)[] | undefined = undefined;
  inOrder: Promise<void> | undefined = undefined;
}
/** The signal of a connection that closed before anyone asked for its signal. */
let closedSignal: AbortSignal | undefined;

/**
 * One WebSocket from the accepted upgrade to its close, in four roles: the connection its
 * route's handlers see (`WebSocketConnection`), the pending socket its adapter opens
 * (`PendingWebSocket`), the socket its hub drives (`HubSocket`), and the receiver of its
 * runtime's events (`WebSocketEvents`, what `open` returns to the adapter); and the policy every
 * runtime shares (message size and validation, idle pings, send-queue limit, close timeouts, the
 * credential's expiry). The adapter only moves frames through the port it gives `open`.
 *
 * An idle connection is what a server holds by the thousand, so a session allocates only what
 * its route uses (issue 51): no timer of its own (the hub's idle sweep checks it), its abort
 * signal, topic set and drain waiters only once asked for, an expiry timer only with a
 * credential that expires, and the upgrade request's runtime objects let go once the socket
 * opens (see `detachRequest`).
 */
export class WebSocketSession implements WebSocketConnection, PendingWebSocket, HubSocket, WebSocketEvents, IdleWatched {
  /** Numbered in the order accepted; `id` is made from it when read. */
  private readonly serial = ++sessions;
  private port: WebSocketPort | undefined;
  private state: 'pending' | 'open' | 'closing' | 'closed' = 'pending';
  /** The silence the idle sweep counts: ticks since the peer was last heard from (a message or a pong). */
  private silentTicks = 0;
  /** What only some connections need (a signal someone asked for, topics, timers, waiters), made on first use. */
  private extras: SessionExtras | undefined;

  private get aborter(): AbortController | undefined {
    return this.extras?.aborter;
  }
  private set aborter(value: AbortController | undefined) {
    this.extrasNow().aborter = value;
  }
  private get topics(): Set<string> | undefined {
    return this.extras?.topics;
  }
  private set topics(value: Set<string> | undefined) {
    this.extrasNow().topics = value;
  }
  private get closeTimer(): ReturnType<typeof setTimeout> | undefined {
    return this.extras?.closeTimer;
  }
  private set closeTimer(value: ReturnType<typeof setTimeout> | undefined) {
    this.extrasNow().closeTimer = value;
  }
  private get drainTimer(): ReturnType<typeof setInterval> | undefined {
    return this.extras?.drainTimer;
  }
  private set drainTimer(value: ReturnType<typeof setInterval> | undefined) {
    this.extrasNow().drainTimer = value;
  }
  private get expiryTimer(): ReturnType<typeof setTimeout> | undefined {
    return this.extras?.expiryTimer;
  }
  private set expiryTimer(value: ReturnType<typeof setTimeout> | undefined) {
    this.extrasNow().expiryTimer = value;
  }
  private get drainWaiters(): (() => void)[] | undefined {
    return this.extras?.drainWaiters;
  }
  private set drainWaiters(value: (() => void)[] | undefined) {
    this.extrasNow().drainWaiters = value;
  }
  /** Settles once the messages waiting for an asynchronous validation have been handled. */
  private get inOrder(): Promise<void> | undefined {
    return this.extras?.inOrder;
  }
  private set inOrder(value: Promise<void> | undefined) {
    this.extrasNow().inOrder = value;
  }
  private extrasNow(): SessionExtras {
    return (this.extras ??= new SessionExtras());
  }

  constructor(
    private readonly spec: WebSocketSpec,
    readonly context: RequestContext,
    private readonly hub: SessionHub,
    readonly protocol: string | undefined,
    private readonly where: string,
  ) {}

  get id(): string {
    return `ws-${this.serial.toString(36)}`;
  }
  get params(): Readonly<Record<string, string>> {
    return this.context.params;
  }
  get query(): unknown {
    return this.context.query;
  }
  get signal(): AbortSignal {
    if (this.aborter !== undefined) return this.aborter.signal;
    // Asked after the close: one aborted signal serves every such connection.
    if (this.state === 'closed') return (closedSignal ??= AbortSignal.abort());
    return (this.aborter = new AbortController()).signal;
  }
  get bufferedAmount(): number {
    return this.port?.bufferedAmount ?? 0;
  }
  get maxMessageBytes(): number {
    return this.spec.maxMessageBytes;
  }
  get idleTimeoutSeconds(): number {
    return this.spec.idleTimeoutSeconds;
  }
  /** Whether the socket is open (not yet closing). */
  get isOpen(): boolean {
    return this.state === 'open';
  }

  get<T>(key: StateKey<T>): T | undefined {
    return this.context.get(key);
  }

  /**
   * Called as the adapter takes the upgrade over: the context keeps the request's method, target,
   * headers and address, and lets go of the runtime's request objects (Node's request, response
   * and body reader; the web Request), which would otherwise live as long as the socket. Its
   * `signal` becomes the connection's.
   */
  detachRequest(): void {
    if (this.context instanceof Context) this.context.detach(this);
  }

  open(port: WebSocketPort): WebSocketEvents {
    if (this.state !== 'pending') throw new Error(`WebSocket ${this.id} was opened twice.`);
    this.port = port;
    this.state = 'open';
    this.hub.opened(this);
    if (port.ping !== undefined) this.hub.idleSweep.watch(this.spec.idleTimeoutSeconds * 1000);
    this.run('open', this.spec.handlers.open);
    const expiresAt = this.context.get(CREDENTIAL_EXPIRES_AT);
    if (expiresAt !== undefined) this.expireAt(expiresAt);
    // The session receives its runtime's events itself: no object nor closure per socket.
    return this;
  }

  /** A whole message from the runtime (`WebSocketEvents`). */
  message(data: string | Uint8Array): void {
    this.receive(data);
  }

  /** A pong from the runtime (`WebSocketEvents`): the peer is alive. */
  pong(): void {
    this.seen();
  }

  /** The runtime's send buffer emptied (`WebSocketEvents`). */
  drain(): void {
    this.checkDrained();
  }

  /** The runtime closed the socket (`WebSocketEvents`). */
  closed(code: number, reason: string): void {
    this.finish(code, reason);
  }

  send(data: unknown): boolean {
    if (this.state !== 'open') return false;
    let frame: string | Uint8Array;
    // With a `send` schema every value goes as JSON, a string too: the typed client JSON-parses
    // what it receives, so a raw '123' would arrive as the number 123 where the type says string.
    if (data instanceof Uint8Array || (typeof data === 'string' && this.spec.send === undefined)) frame = data;
    else if (data instanceof ArrayBuffer) frame = new Uint8Array(data);
    else {
      const text = JSON.stringify(data) as string | undefined;
      if (text === undefined) throw new TypeError(`WebSocket ${this.id}: ${typeof data} cannot be sent (not JSON).`);
      frame = text;
    }
    return this.sendFrame(frame);
  }

  /** Sends a frame already encoded (a topic's message, encoded once for all its subscribers). */
  sendFrame(frame: string | Uint8Array): boolean {
    const port = this.port;
    if (this.state !== 'open' || port === undefined) return false;
    port.send(frame);
    const buffered = port.bufferedAmount;
    if (buffered > this.spec.maxBufferedBytes) {
      this.hub.logger.warn({ route: this.where, connection: this.id, buffered }, 'WebSocket send queue over its limit: closing (the client is not reading)');
      this.shut(1008, 'Send queue limit exceeded', OVERFLOW_CLOSE_TIMEOUT_MS);
      return false;
    }
    return buffered <= this.spec.maxBufferedBytes / 2;
  }

  drained(): Promise<void> {
    if (this.state === 'closed' || this.bufferedAmount <= this.spec.maxBufferedBytes / 2) return Promise.resolve();
    return new Promise((resolve) => {
      (this.drainWaiters ??= []).push(resolve);
      this.port?.watchDrain?.();
      // Runtimes without a drain event (Deno, workerd) are polled while someone waits.
      this.drainTimer ??= unrefTimer(setInterval(() => this.checkDrained(), DRAIN_POLL_MS));
    });
  }

  close(code = 1000, reason = ''): void {
    if (!sendableCode(code)) throw new RangeError(`WebSocket close code ${code} cannot be sent: use 1000, 1001, 1003, 1007-1011 or 3000-4999.`);
    if (utf8LengthExceeds(reason, 123)) throw new RangeError('A WebSocket close reason is at most 123 bytes of UTF-8.');
    this.shut(code, reason, CLOSE_TIMEOUT_MS);
  }

  /** Drops the connection without a closing handshake (shutdown's last step, a dead peer). */
  terminate(): void {
    if (this.state === 'closed') return;
    this.port?.terminate();
  }

  subscribe(topic: string): Promise<void> {
    const topics = (this.topics ??= new Set());
    if (this.state !== 'open' || topics.has(topic)) return Promise.resolve();
    topics.add(topic);
    return this.hub.subscribe(topic, this).catch((error: unknown) => {
      // The hub dropped it too: this socket hears nothing on the topic, and says so.
      topics.delete(topic);
      throw error;
    });
  }

  unsubscribe(topic: string): Promise<void> {
    if (this.topics?.delete(topic) !== true) return Promise.resolve();
    return this.hub.unsubscribe(topic, this);
  }

  publish(topic: string, data: unknown): Promise<void> {
    // As `send`: with a `send` schema a string goes as JSON, so the typed client reads a string.
    return this.hub.publish(topic, typeof data === 'string' && this.spec.send !== undefined ? JSON.stringify(data) : data);
  }

  /** Closes the socket (1008) when the credential that opened it expires. */
  private expireAt(expiresAtMs: number): void {
    const wait = expiresAtMs - Date.now();
    if (wait <= 0) {
      this.shut(1008, 'Credential expired', CLOSE_TIMEOUT_MS);
      return;
    }
    this.expiryTimer = unrefTimer(setTimeout(() => this.expireAt(expiresAtMs), Math.min(wait, MAX_TIMER_MS)));
  }

  /** Starts the closing handshake (any code: the core's own include 1008 and 1009), dropping the socket if it does not finish in time. */
  shut(code: number, reason: string, timeoutMs: number): void {
    if (this.state !== 'open' || this.port === undefined) return;
    this.state = 'closing';
    const port = this.port;
    port.close(code, reason);
    this.closeTimer = unrefTimer(setTimeout(() => port.terminate(), timeoutMs));
  }

  private receive(data: string | Uint8Array): void {
    if (this.state !== 'open') return;
    this.seen();
    const spec = this.spec;
    if (this.port?.enforcesMessageLimit !== true && (typeof data === 'string' ? utf8LengthExceeds(data, spec.maxMessageBytes) : data.byteLength > spec.maxMessageBytes)) {
      this.shut(1009, 'Message too big', CLOSE_TIMEOUT_MS);
      return;
    }
    if (typeof data !== 'string') {
      if (!spec.binary) this.shut(1003, 'Binary messages are not accepted', CLOSE_TIMEOUT_MS);
      else this.deliver(data);
      return;
    }
    const schema = spec.message;
    if (schema === undefined) {
      this.deliver(data);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      this.invalid('The message is not JSON.', undefined);
      return;
    }
    let parsed: SchemaParseResult | Promise<SchemaParseResult>;
    try {
      parsed = messageParser(schema)(value);
    } catch (error) {
      this.failed('message', error);
      return;
    }
    // An asynchronous validation (a lookup) is awaited; the messages after it wait their turn, so
    // the handler sees them in the order they came.
    if (parsed instanceof Promise || this.inOrder !== undefined) {
      const previous = this.inOrder ?? Promise.resolve();
      const current = previous
        .then(() => parsed)
        .then(
          (result) => {
            if (this.state === 'open') this.accept(result);
          },
          (error: unknown) => this.failed('message', error),
        );
      this.inOrder = current;
      void current.then(() => {
        if (this.inOrder === current) this.inOrder = undefined;
      });
      return;
    }
    this.accept(parsed);
  }

  private accept(parsed: SchemaParseResult): void {
    if (!parsed.success) {
      this.invalid('The message failed validation.', parsed.error.issues);
      return;
    }
    this.deliver(parsed.data);
  }

  /** Hands one valid message to the handler (the hot path: no closure per message). */
  private deliver(value: unknown): void {
    const handler = this.spec.handlers.message;
    if (handler === undefined) return;
    try {
      const result = handler(this, value);
      if (result instanceof Promise) result.catch((error: unknown) => this.failed('message', error));
    } catch (error) {
      this.failed('message', error);
    }
  }

  /** A text message the route's schema refuses: 1007, or an error message when the route replies. */
  private invalid(detail: string, issues: readonly unknown[] | undefined): void {
    if (this.spec.invalidMessage === 'close') {
      this.shut(1007, 'Invalid message', CLOSE_TIMEOUT_MS);
      return;
    }
    this.sendFrame(JSON.stringify({ error: { status: 400, title: 'Invalid message', detail, ...(issues === undefined ? {} : { issues }) } }));
  }

  private seen(): void {
    this.silentTicks = 0;
  }

  /** The idle sweep's tick (`IdleWatched`): pings a socket silent past half its timeout, drops one silent past all of it. */
  idleTick(idleMs: number, pingAt: number, dropAt: number): void {
    // Sockets of other timeouts, and those whose runtime pings by itself (Deno) or not at all (workerd), are not this tick's.
    if (this.port?.ping === undefined || this.spec.idleTimeoutSeconds * 1000 !== idleMs || this.state === 'closed') return;
    const silent = ++this.silentTicks;
    if (silent >= dropAt) {
      this.hub.logger.debug({ route: this.where, connection: this.id }, 'WebSocket idle past its timeout: dropped');
      this.terminate();
    } else if (silent === pingAt && this.state === 'open') {
      this.port?.ping?.();
    }
  }

  private checkDrained(): void {
    if (this.drainWaiters === undefined || this.drainWaiters.length === 0) return;
    if (this.state !== 'closed' && this.bufferedAmount > this.spec.maxBufferedBytes / 2) return;
    const waiters = this.drainWaiters;
    this.drainWaiters = undefined;
    clearInterval(this.drainTimer);
    this.drainTimer = undefined;
    for (const resolve of waiters) resolve();
  }

  private finish(code: number, reason: string): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    if (this.port?.ping !== undefined) this.hub.idleSweep.forget(this.spec.idleTimeoutSeconds * 1000);
    clearTimeout(this.closeTimer);
    clearTimeout(this.expiryTimer);
    this.checkDrained();
    this.aborter?.abort();
    const topics = this.topics;
    if (topics !== undefined) {
      for (const topic of topics) void this.hub.unsubscribe(topic, this).catch((error: unknown) => this.hub.logger.warn({ err: error, topic }, 'WebSocket unsubscribe failed'));
      topics.clear();
    }
    this.hub.closed(this);
    this.run('close', this.spec.handlers.close, code, reason);
  }

  /** Runs a handler, if the route has it; its error (thrown or rejected) is logged and closes the connection with 1011. */
  private run(name: 'open' | 'close', handler: ((conn: WebSocketConnection, code: number, reason: string) => unknown) | undefined, code = 0, reason = ''): void {
    if (handler === undefined) return;
    try {
      const result = handler(this, code, reason);
      if (result instanceof Promise) result.catch((error: unknown) => this.failed(name, error));
    } catch (error) {
      this.failed(name, error);
    }
  }

  private failed(name: string, error: unknown): void {
    this.hub.logger.error({ err: error, route: this.where, connection: this.id }, `WebSocket ${name} handler failed`);
    this.shut(1011, 'Internal error', CLOSE_TIMEOUT_MS);
  }
}
