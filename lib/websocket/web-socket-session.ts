import type { RequestContext, StateKey } from '../context/request-context.js';
import type { WebSocketConnection, WebSocketSpec } from '../routing/web-socket-spec.js';
import type { WebSocketEvents, WebSocketPort } from './web-socket-port.js';
import { utf8LengthExceeds } from '../http/utf8.js';
import { unrefTimer } from '../common/unref-timer.js';
import { Context } from '../context/request-context.js';
import { CREDENTIAL_EXPIRES_AT } from './credential-expiry.js';
import type { Schema } from '../context/route-info.js';
import { compileSchemaParser, type SchemaParser, type SchemaParseResult } from '../schema/schema-parser.js';
import type { HubSocket, PendingWebSocket, SessionHub } from './session-roles.js';
import { CLOSE_TIMEOUT_MS, OVERFLOW_CLOSE_TIMEOUT_MS, SessionLifetime } from './session-lifetime.js';

const DRAIN_POLL_MS = 10;

/** One parser per message schema, shared by the route's connections. */
const messageParsers = new WeakMap<Schema, SchemaParser>();
function messageParser(schema: Schema): SchemaParser {
  let parse = messageParsers.get(schema);
  if (parse === undefined) messageParsers.set(schema, (parse = compileSchemaParser(schema)));
  return parse;
}

let sessions = 0;

/** The signal of a connection that closed before anyone asked for its signal. */
let closedSignal: AbortSignal | undefined;

/**
 * One WebSocket from the accepted upgrade to its close, in four roles: the connection its
 * route's handlers see (`WebSocketConnection`), the pending socket its adapter opens
 * (`PendingWebSocket`), the socket its hub drives (`HubSocket`), and the receiver of its
 * runtime's events (`WebSocketEvents`, what `open` returns to the adapter); and the policy every
 * runtime shares (message size and validation, send-queue limit, and through its
 * `SessionLifetime`: idle pings, close timeouts, the credential's expiry). The adapter only moves
 * frames through the port it gives `open`.
 *
 * An idle connection is what a server holds by the thousand, so a session allocates only what
 * its route uses (issue 51): no timer of its own (the hub's idle sweep checks it), its abort
 * signal, topic set and drain waiters only once asked for, an expiry timer only with a
 * credential that expires, and the upgrade request's runtime objects let go once the socket
 * opens (see `detachRequest`).
 */
export class WebSocketSession extends SessionLifetime implements WebSocketConnection, PendingWebSocket, HubSocket, WebSocketEvents {
  /** Numbered in the order accepted; `id` is made from it when read. */
  private readonly serial = ++sessions;

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
  private get drainTimer(): ReturnType<typeof setInterval> | undefined {
    return this.extras?.drainTimer;
  }
  private set drainTimer(value: ReturnType<typeof setInterval> | undefined) {
    this.extrasNow().drainTimer = value;
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

  readonly context: RequestContext;
  readonly protocol: string | undefined;

  // Plain assignments, not parameter properties: tsup's CommonJS output of a derived class's
  // parameter properties beside a field initializer (`serial`) is a syntax error.
  constructor(spec: WebSocketSpec, context: RequestContext, hub: SessionHub, protocol: string | undefined, where: string) {
    super(spec, hub, where);
    this.context = context;
    this.protocol = protocol;
  }

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
    this.begin(port);
    this.hub.opened(this);
    this.watchIdle(port);
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

  /** The runtime's send buffer emptied (`WebSocketEvents`). */
  drain(): void {
    this.checkDrained();
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

  private checkDrained(): void {
    if (this.drainWaiters === undefined || this.drainWaiters.length === 0) return;
    if (this.state !== 'closed' && this.bufferedAmount > this.spec.maxBufferedBytes / 2) return;
    const waiters = this.drainWaiters;
    this.drainWaiters = undefined;
    clearInterval(this.drainTimer);
    this.drainTimer = undefined;
    for (const resolve of waiters) resolve();
  }

  /** After the runtime closed the socket (`closed`, in `SessionLifetime`): waiters, signal, topics, hub, the route's close handler. */
  protected ended(code: number, reason: string): void {
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
