import type { PendingWebSocket, WebSocketEvents, WebSocketPort, WebSocketUpgrader } from '../../internal/web-sockets.js';

/**
 * What the adapter keeps on each Bun socket (`ws.data`), and the port the core drives it
 * through: one object per connection, no closures (an idle socket is held by the thousand).
 */
class SocketData implements WebSocketPort {
  socket: BunSocket | undefined = undefined;
  events: WebSocketEvents | undefined = undefined;
  constructor(readonly pending: PendingWebSocket) {}

  send(data: string | Uint8Array): void {
    this.socket?.send(data);
  }
  close(code: number, reason: string): void {
    this.socket?.close(code, reason);
  }
  terminate(): void {
    this.socket?.terminate();
  }
  ping(): void {
    this.socket?.ping();
  }
  get bufferedAmount(): number {
    return this.socket?.getBufferedAmount() ?? 0;
  }
}

/** The slice of Bun's ServerWebSocket used here. */
interface BunSocket {
  readonly data: SocketData;
  send(data: string | Uint8Array): number;
  close(code?: number, reason?: string): void;
  terminate(): void;
  ping(): number;
  getBufferedAmount(): number;
}

/** The `websocket` option of `Bun.serve` this adapter fills. */
export interface BunWebSocketHandlers {
  readonly open: (ws: BunSocket) => void;
  readonly message: (ws: BunSocket, message: string | Uint8Array) => void;
  readonly pong: (ws: BunSocket) => void;
  readonly drain: (ws: BunSocket) => void;
  readonly close: (ws: BunSocket, code: number, reason: string) => void;
  /** Off: the core pings and drops silent peers by each route's `idleTimeoutSeconds`. */
  readonly idleTimeout: number;
  readonly sendPings: boolean;
  /** Bun's own cap on a message (16 MiB); each route's `maxMessageBytes` is checked by the core below it. */
  readonly maxPayloadLength: number;
}

const REFUSED = () =>
  new Response(JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400, detail: 'The WebSocket handshake failed.' }), { status: 400, headers: { 'content-type': 'application/problem+json' } });

/**
 * The WebSocket upgrader for Bun: an upgrade the app accepted is completed with
 * `server.upgrade`, and the socket's events reach the core through `websocket`, which must be
 * given to the same `Bun.serve`. `bunServer` wires both.
 *
 * @example
 * const upgrader = bunWebSocketUpgrader();
 * Bun.serve({ fetch: toFetchHandler(app, { webSocketUpgrader: upgrader }), websocket: upgrader.websocket });
 */
export function bunWebSocketUpgrader(): WebSocketUpgrader & { readonly websocket: BunWebSocketHandlers } {
  return {
    upgrade({ pending, headers }, { request, platform }) {
      const server = platform as { upgrade?: (request: Request, options: { data: SocketData; headers: Record<string, string> }) => boolean } | undefined;
      if (typeof server?.upgrade !== 'function') throw new Error('bunWebSocketUpgrader needs the Bun server: serve toFetchHandler(app, { webSocketUpgrader }) from Bun.serve.');
      // Bun answers the 101 itself; what the fetch handler returns after that is ignored.
      return server.upgrade(request, { data: new SocketData(pending), headers: { ...headers } }) ? new Response(null) : REFUSED();
    },
    websocket: {
      open: (ws) => {
        const data = ws.data;
        data.socket = ws;
        data.events = data.pending.open(data);
      },
      message: (ws, message) => ws.data.events?.message(message),
      pong: (ws) => ws.data.events?.pong(),
      drain: (ws) => ws.data.events?.drain(),
      close: (ws, code, reason) => ws.data.events?.closed(code, reason),
      idleTimeout: 0,
      sendPings: false,
      maxPayloadLength: 16 * 1024 * 1024,
    },
  };
}
