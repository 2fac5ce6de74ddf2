import type { Logger } from '../logging/logger.js';
import type { RequestContext } from '../context/request-context.js';
import type { WebSocketEvents, WebSocketPort } from './web-socket-port.js';
import type { IdleSweep, IdleWatched } from './idle-sweep.js';

// The contracts a WebSocket session keeps with its app's hub and with its runtime's adapter
// (web-socket-session.ts implements them; web-socket-hub.ts and the adapters use them).

/** What a session needs of its app's hub: topics and the registry of open sockets. */
export interface SessionHub {
  readonly logger: Logger;
  /** The idle checks of the app's sockets (one timer per idle timeout, not one per socket). */
  readonly idleSweep: IdleSweep;
  opened(socket: HubSocket): void;
  closed(socket: HubSocket): void;
  subscribe(topic: string, socket: HubSocket): Promise<void>;
  unsubscribe(topic: string, socket: HubSocket): Promise<void>;
  publish(topic: string, data: unknown): Promise<void>;
}

/**
 * A socket as its hub drives it, the third of a session's three roles (beside the
 * `WebSocketConnection` its route's handlers see and the {@link PendingWebSocket} its adapter
 * opens): the upgrade's context (which credential opened it), topic frames encoded once for all
 * subscribers, and the closes the hub decides (a revoked credential, shutdown).
 *
 * @example
 * for (const socket of sockets) if (socket.isOpen && revoked(socket.context)) socket.close(1008, 'Session revoked');
 */
export interface HubSocket extends IdleWatched {
  readonly context: RequestContext;
  readonly isOpen: boolean;
  /** Sends a frame already encoded (a topic's message, encoded once for all its subscribers). */
  sendFrame(frame: string | Uint8Array): boolean;
  close(code: number, reason: string): void;
  /** Starts the closing handshake with any code (the core's own included), dropping the socket after `timeoutMs`. */
  shut(code: number, reason: string, timeoutMs: number): void;
  terminate(): void;
}

/**
 * An accepted upgrade, as the adapter receives it with the 101 answer: what it needs to open the
 * socket (the chosen subprotocol, the message limit for the runtime's own frame check, the idle
 * timeout for a runtime that pings by itself) and `open`, which hands the socket to the core.
 *
 * @example
 * const events = pending.open(port);
 * ws.on('message', (data, binary) => events.message(binary ? bytes(data) : String(data)));
 */
export interface PendingWebSocket {
  readonly protocol: string | undefined;
  readonly maxMessageBytes: number;
  readonly idleTimeoutSeconds: number;
  open(port: WebSocketPort): WebSocketEvents;
}
