import type { PendingWebSocket, WebSocketEvents, WebSocketPort } from '../../internal/web-sockets.js';

/** The server side of a WHATWG WebSocket as Deno and workerd hand it out. */
export interface StandardServerSocket {
  binaryType?: string;
  readonly bufferedAmount?: number;
  send(data: string | Uint8Array): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'message' | 'close' | 'error', listener: (event: { data?: unknown; code?: number; reason?: string }) => void): void;
}

/**
 * How {@link bindStandardWebSocket} binds one runtime's sockets.
 *
 * @example
 * bindStandardWebSocket(socket, pending, { open: true, port: queuedPort }); // workerd
 */
export interface StandardSocketBinding {
  /** The socket is open already (workerd's accepted end of a pair); else it opens on its 'open' event (Deno). */
  readonly open: boolean;
  /**
   * The port the core writes through, made from the socket's own (workerd queues every write for
   * the socket's request context). `closed` resolves when the socket has closed.
   */
  readonly port?: (direct: WebSocketPort, closed: Promise<void>) => WebSocketPort;
}

/**
 * Hands a standard server-side WebSocket to the core, for every runtime that has one (Deno,
 * workerd). These runtimes cannot ping from script nor drop a socket without its handshake:
 * `terminate` closes (1001) as the nearest thing, and dead peers are found by the runtime's own
 * keep-alive (Deno's `idleTimeout`) or not at all (workerd).
 *
 * @example
 * bindStandardWebSocket(socket, pending, { open: false }); // Deno: the core opens on the 'open' event
 */
export function bindStandardWebSocket(socket: StandardServerSocket, pending: PendingWebSocket, binding: StandardSocketBinding): void {
  // Binary messages as ArrayBuffer; a socket that has no such setting (workerd's) already delivers them so.
  if (socket.binaryType !== undefined && socket.binaryType !== 'arraybuffer') socket.binaryType = 'arraybuffer';
  let events: WebSocketEvents | undefined;
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  const direct: WebSocketPort = {
    send: (data) => socket.send(data),
    close: (code, reason) => socket.close(code, reason),
    terminate: () => socket.close(1001, 'Going away'),
    get bufferedAmount() {
      return socket.bufferedAmount ?? 0;
    },
  };
  const open = () => {
    events = pending.open(binding.port === undefined ? direct : binding.port(direct, closed));
  };
  if (binding.open) open();
  else socket.addEventListener('open', open);
  socket.addEventListener('message', (event) => {
    const data = event.data;
    events?.message(typeof data === 'string' ? data : new Uint8Array(data as ArrayBuffer));
  });
  socket.addEventListener('close', (event) => {
    markClosed();
    events?.closed(event.code ?? 1006, event.reason ?? '');
  });
  // An error is followed by a close event, which reports it to the core.
  socket.addEventListener('error', () => undefined);
}
