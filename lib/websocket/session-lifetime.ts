import type { WebSocketSpec } from '../routing/web-socket-spec.js';
import type { WebSocketPort } from './web-socket-port.js';
import type { IdleWatched } from './idle-sweep.js';
import type { SessionHub } from './session-roles.js';
import { utf8LengthExceeds } from '../http/utf8.js';
import { unrefTimer } from '../common/unref-timer.js';
import { SessionExtras } from './session-extras.js';

/** How long a closing handshake may take before the socket is dropped. */
export const CLOSE_TIMEOUT_MS = 5_000;
/** A client that let the send queue overflow is not reading: it gets this long for the close frame. */
export const OVERFLOW_CLOSE_TIMEOUT_MS = 1_000;
/** setTimeout's longest delay; a later expiry is checked again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Close codes a handler may send (RFC 6455 7.4: the protocol's own, and 3000-4999 for applications). */
function sendableCode(code: number): boolean {
  return code === 1000 || code === 1001 || code === 1003 || (code >= 1007 && code <= 1011) || (code >= 3000 && code <= 4999);
}

/**
 * A WebSocket session's lifetime, the half of the session that is about whether its socket lives
 * rather than what it carries: its state from pending to closed, the closing handshake and the
 * timeout that drops a socket whose peer does not finish it (`close`, `shut`, `terminate`), the
 * idle sweep's liveness check (`idleTick`: a ping past half the idle timeout, a drop past all of
 * it; hearing from the peer, `seen`, starts the count again), the close when the credential that
 * opened it expires, and the runtime's `closed` event, which stops all of these before the
 * session's own `ended` runs. `WebSocketSession` extends it; every runtime shares it.
 *
 * Nothing here is per message but `seen` (one store), and nothing is allocated per socket but
 * the session's extras, once a close or an expiry needs a timer.
 *
 * @example
 * class Session extends SessionLifetime {
 *   protected ended(code: number, reason: string): void { console.log('closed', code, reason); }
 * }
 */
export abstract class SessionLifetime implements IdleWatched {
  protected port: WebSocketPort | undefined;
  protected state: 'pending' | 'open' | 'closing' | 'closed' = 'pending';
  /** The silence the idle sweep counts: ticks since the peer was last heard from (a message or a pong). */
  private silentTicks = 0;
  /** What only some connections need (a signal someone asked for, topics, timers, waiters), made on first use. */
  protected extras: SessionExtras | undefined;

  constructor(
    protected readonly spec: WebSocketSpec,
    protected readonly hub: SessionHub,
    /** The route, as log lines name it. */
    protected readonly where: string,
  ) {}

  /** The connection's id, as log lines name it. */
  abstract get id(): string;

  /** What the session does once its socket closed: called once, after the lifetime's own timers stopped. */
  protected abstract ended(code: number, reason: string): void;

  private get closeTimer(): ReturnType<typeof setTimeout> | undefined {
    return this.extras?.closeTimer;
  }
  private set closeTimer(value: ReturnType<typeof setTimeout> | undefined) {
    this.extrasNow().closeTimer = value;
  }
  private get expiryTimer(): ReturnType<typeof setTimeout> | undefined {
    return this.extras?.expiryTimer;
  }
  private set expiryTimer(value: ReturnType<typeof setTimeout> | undefined) {
    this.extrasNow().expiryTimer = value;
  }
  protected extrasNow(): SessionExtras {
    return (this.extras ??= new SessionExtras());
  }

  /** Whether the socket is open (not yet closing). */
  get isOpen(): boolean {
    return this.state === 'open';
  }

  /** The socket opened on `port`: once only. */
  protected begin(port: WebSocketPort): void {
    if (this.state !== 'pending') throw new Error(`WebSocket ${this.id} was opened twice.`);
    this.port = port;
    this.state = 'open';
  }

  /** Puts the socket under its hub's idle sweep, where its runtime can ping (`closed` takes it off). */
  protected watchIdle(port: WebSocketPort): void {
    if (port.ping !== undefined) this.hub.idleSweep.watch(this.spec.idleTimeoutSeconds * 1000);
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

  /** Starts the closing handshake (any code: the core's own include 1008 and 1009), dropping the socket if it does not finish in time. */
  shut(code: number, reason: string, timeoutMs: number): void {
    if (this.state !== 'open' || this.port === undefined) return;
    this.state = 'closing';
    const port = this.port;
    port.close(code, reason);
    this.closeTimer = unrefTimer(setTimeout(() => port.terminate(), timeoutMs));
  }

  /** Closes the socket (1008) when the credential that opened it expires. */
  protected expireAt(expiresAtMs: number): void {
    const wait = expiresAtMs - Date.now();
    if (wait <= 0) {
      this.shut(1008, 'Credential expired', CLOSE_TIMEOUT_MS);
      return;
    }
    this.expiryTimer = unrefTimer(setTimeout(() => this.expireAt(expiresAtMs), Math.min(wait, MAX_TIMER_MS)));
  }

  /** The peer was heard from (a message or a pong): its silence starts again. */
  protected seen(): void {
    this.silentTicks = 0;
  }

  /** A pong from the runtime (`WebSocketEvents`): the peer is alive. */
  pong(): void {
    this.seen();
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

  /** The runtime closed the socket (`WebSocketEvents`): the lifetime's watches and timers stop, then the session ends. */
  closed(code: number, reason: string): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    if (this.port?.ping !== undefined) this.hub.idleSweep.forget(this.spec.idleTimeoutSeconds * 1000);
    clearTimeout(this.closeTimer);
    clearTimeout(this.expiryTimer);
    this.ended(code, reason);
  }
}
