import type { PendingWebSocket, WebSocketEvents } from '../../internal.js';

/** The server side of a WHATWG WebSocket as Deno and workerd hand it out. */
export interface StandardServerSocket {
  binaryType: string;
  readonly bufferedAmount?: number;
  send(data: string | Uint8Array): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'message' | 'close' | 'error', listener: (event: { data?: unknown; code?: number; reason?: string }) => void): void;
}

/**
 * Hands a standard server-side WebSocket to the core. These runtimes cannot ping from script nor
 * drop a socket without its handshake: `terminate` closes (1001) as the nearest thing, and dead
 * peers are found by the runtime's own keep-alive (Deno's `idleTimeout`).
 *
 * @example
 * bindStandardWebSocket(socket, pending, false); // Deno: the core opens on the 'open' event
 */
export function bindStandardWebSocket(socket: StandardServerSocket, pending: PendingWebSocket, alreadyOpen: boolean): void {
  socket.binaryType = 'arraybuffer';
  let events: WebSocketEvents | undefined;
  const open = () => {
    events = pending.open({
      send: (data) => socket.send(data),
      close: (code, reason) => socket.close(code, reason),
      terminate: () => socket.close(1001, 'Going away'),
      get bufferedAmount() {
        return socket.bufferedAmount ?? 0;
      },
    });
  };
  if (alreadyOpen) open();
  else socket.addEventListener('open', open);
  socket.addEventListener('message', (event) => {
    const data = event.data;
    events?.message(typeof data === 'string' ? data : new Uint8Array(data as ArrayBuffer));
  });
  socket.addEventListener('close', (event) => events?.closed(event.code ?? 1006, event.reason ?? ''));
  // An error is followed by a close event, which reports it to the core.
  socket.addEventListener('error', () => undefined);
}
