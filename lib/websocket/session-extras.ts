/**
 * The part of a WebSocket session that only some connections use, in one object made on first
 * use: an idle socket of a plain route never needs any of it, and seven fields fewer on every
 * session is ~56 bytes per held connection (issue 51). `SessionLifetime` keeps its timers here,
 * `WebSocketSession` the rest.
 *
 * @example
 * (this.extras ??= new SessionExtras()).closeTimer = setTimeout(() => port.terminate(), timeoutMs);
 */
export class SessionExtras {
  aborter: AbortController | undefined = undefined;
  topics: Set<string> | undefined = undefined;
  closeTimer: ReturnType<typeof setTimeout> | undefined = undefined;
  drainTimer: ReturnType<typeof setInterval> | undefined = undefined;
  expiryTimer: ReturnType<typeof setTimeout> | undefined = undefined;
  drainWaiters: (() => void)[] | undefined = undefined;
  inOrder: Promise<void> | undefined = undefined;
}
