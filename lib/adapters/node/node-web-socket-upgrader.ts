import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Logger } from '../../index.js';
import type { PendingWebSocket, WebSocketEvents, WebSocketPort, WebSocketUpgrader } from '../../internal/web-sockets.js';

/** What Node's `upgrade` event gives for an upgrade request: what `ws` takes over. */
export interface NodeUpgradeConnection {
  readonly req: IncomingMessage;
  readonly socket: Duplex;
  readonly head: Buffer;
}

/** A message's bytes as a plain Uint8Array view (ws hands a Buffer, or a list of them for fragments it did not join). */
function bytesOf(data: RawData): Uint8Array {
  const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/**
 * The `ws` socket of a Tessera connection, and the port the core drives it through: `ws`'s own
 * `send`, `close`, `terminate`, `ping` and `bufferedAmount` are the port's operations, so a
 * connection costs no port object and no closures; the events reach the session through
 * listeners shared by every socket (`this` is the socket). `ws` builds it (its `WebSocket` option).
 */
class TesseraNodeWebSocket extends WebSocket implements WebSocketPort {
  /** The session's events, set as the upgrade completes. */
  events: WebSocketEvents | undefined = undefined;
  /** The connection's socket, in its server's upgraded sockets (`held`) until this closes. */
  socket: Duplex | undefined = undefined;
  held: Set<Duplex> | undefined = undefined;
  private drainWatched = false;

  /** The ws server this socket came from has maxPayload = the route's maxMessageBytes: ws closes with 1009 past it. */
  get enforcesMessageLimit(): boolean {
    return true;
  }

  watchDrain(): void {
    if (this.drainWatched) return;
    this.drainWatched = true;
    // Only sockets whose sender waited carry this listener.
    const socket = (this as unknown as { _socket: Duplex | null })._socket;
    socket?.on('drain', () => this.events?.drain());
  }
}

// Listeners shared by every socket: `this` is the socket that emitted.
function onMessage(this: WebSocket, data: RawData, isBinary: boolean): void {
  (this as TesseraNodeWebSocket).events?.message(isBinary ? bytesOf(data) : data.toString());
}
function onPong(this: WebSocket): void {
  (this as TesseraNodeWebSocket).events?.pong();
}
function onClose(this: WebSocket, code: number, reason: Buffer): void {
  const ws = this as TesseraNodeWebSocket;
  if (ws.socket !== undefined) ws.held?.delete(ws.socket);
  ws.events?.closed(code, reason.toString());
}

/**
 * The upgrader of one Node server, over the `ws` package: the handshake and the frames are
 * `ws`'s (RFC 6455, UTF-8 checks, fragmented messages, the 1009 close past `maxPayload`); the
 * policy on top (validation, idle pings, send-queue limit, shutdown) is the core's, reached
 * through the port given to `pending.open`. One `ws` server per message limit, as `maxPayload`
 * is per server. Each socket it takes over is in `upgradedSockets` until it closes: no longer an
 * HTTP connection, graceful close leaves it to the app's WebSocket shutdown.
 *
 * @example
 * const upgrader = createNodeWebSocketUpgrader(logger, upgradedSockets);
 * upgrader.upgrade(accepted, { req, socket, head });
 */
export function createNodeWebSocketUpgrader(logger: Logger, upgradedSockets: Set<Duplex>): WebSocketUpgrader<NodeUpgradeConnection, void> {
  const servers = new Map<number, WebSocketServer>();
  const extraHeaders = new WeakMap<IncomingMessage, Readonly<Record<string, string>>>();
  const sockets = upgradedSockets;
  // Shared by every socket of this server, as the listeners above.
  // A protocol error (invalid UTF-8: 1007, too big: 1009) is answered by ws with a close frame; the close event follows.
  const onError = (error: Error): void => logger.debug({ err: error }, 'WebSocket protocol error');

  const serverFor = (maxPayload: number): WebSocketServer => {
    let server = servers.get(maxPayload);
    if (server === undefined) {
      server = new WebSocketServer({
        noServer: true,
        maxPayload,
        // Compression of every message costs CPU and memory per connection (and is a known
        // vector for compression side channels); routes that want it can come later.
        perMessageDeflate: false,
        // The core already chose the subprotocol; ws must answer the same one.
        handleProtocols: (_offered, req) => chosenProtocol.get(req) ?? false,
        WebSocket: TesseraNodeWebSocket,
      });
      // Headers the app's middleware put on the 101 (a request id, a cookie) go out with it.
      server.on('headers', (lines, req) => {
        for (const [name, value] of Object.entries(extraHeaders.get(req) ?? {})) if (name !== 'sec-websocket-protocol') lines.push(`${name}: ${value}`);
      });
      servers.set(maxPayload, server);
    }
    return server;
  };
  const chosenProtocol = new WeakMap<IncomingMessage, string>();

  const bind = (ws: TesseraNodeWebSocket, socket: Duplex, pending: PendingWebSocket): void => {
    ws.socket = socket;
    ws.held = sockets;
    ws.events = pending.open(ws);
    ws.on('message', onMessage);
    ws.on('pong', onPong);
    ws.on('error', onError);
    ws.on('close', onClose);
  };

  return {
    upgrade({ pending, headers }, { req, socket, head }) {
      sockets.add(socket);
      extraHeaders.set(req, headers);
      if (pending.protocol !== undefined) chosenProtocol.set(req, pending.protocol);
      const server = serverFor(pending.maxMessageBytes);
      let opened = false;
      try {
        // Synchronous (no verifyClient): by its return ws has opened the socket or refused the
        // handshake (answered 400 and destroyed the socket).
        server.handleUpgrade(req, socket, head, (ws) => {
          opened = true;
          bind(ws as TesseraNodeWebSocket, socket, pending);
        });
      } catch (error) {
        logger.error({ err: error }, 'WebSocket upgrade failed');
        socket.destroy();
      }
      // An opened socket leaves the set on its ws 'close' (onClose), with no listener of its own on the socket.
      if (!opened) sockets.delete(socket);
    },
  };
}
