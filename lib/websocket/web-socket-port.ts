/**
 * What a runtime adapter gives the core for one open WebSocket: the few operations every runtime
 * has. The core owns the policy (message limits, validation, idle pings, backpressure, shutdown);
 * the adapter only moves frames. `ping` is absent where the runtime cannot send one (workerd, and
 * Deno, whose own `idleTimeout` pings instead); the core then leaves dead peers to the runtime.
 *
 * @example
 * const events = session.open({ send: (d) => ws.send(d), close: (c, r) => ws.close(c, r), terminate: () => ws.terminate(), ping: () => ws.ping(), get bufferedAmount() { return ws.bufferedAmount; } });
 */
export interface WebSocketPort {
  /** Queues one frame: text for a string, binary for bytes. */
  send(data: string | Uint8Array): void;
  /** Starts the closing handshake. */
  close(code: number, reason: string): void;
  /** Drops the connection without a handshake (a peer that stopped answering). */
  terminate(): void;
  /** Sends a ping; the adapter reports the pong with `WebSocketEvents.pong`. */
  ping?(): void;
  /**
   * Called when a sender starts waiting for the queue to drain (`conn.drained()`): from then on
   * the adapter reports the runtime's drain events with `WebSocketEvents.drain`. Adapters whose
   * runtime reports drains anyway, or never, leave it out (the core also polls while someone
   * waits). Asked for, not always on, so that a socket nobody waits on carries no listener.
   */
  watchDrain?(): void;
  /** Bytes queued but not yet handed to the network (0 where the runtime does not tell). */
  readonly bufferedAmount: number;
  /**
   * True when the runtime closes with 1009 any message over the session's `maxMessageBytes`
   * before handing it over (Node's `ws`, one server per limit, as `maxPayload`): the core then
   * does not measure each message again.
   */
  readonly enforcesMessageLimit?: boolean;
}

/**
 * What the core gives back to the adapter for one socket: the adapter calls these as the runtime
 * reports events. Each is total: it never throws.
 *
 * @example
 * ws.on('message', (data, isBinary) => events.message(isBinary ? toBytes(data) : data.toString()));
 * ws.on('close', (code, reason) => events.closed(code, reason.toString()));
 */
export interface WebSocketEvents {
  /** A whole message: a string for a text message (the runtime checked its UTF-8), bytes for binary. */
  message(data: string | Uint8Array): void;
  /** A pong arrived (the peer is alive). */
  pong(): void;
  /** The socket's send buffer emptied (for runtimes that say so; others are polled). */
  drain(): void;
  /** The socket is closed, cleanly (the peer's code) or not (1006). Called once. */
  closed(code: number, reason: string): void;
}
