import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Logger } from '../../index.js';
import type { PendingWebSocket, WebSocketUpgrader } from '../../internal/web-sockets.js';

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

  const bind = (ws: WebSocket, socket: Duplex, pending: PendingWebSocket): void => {
    const events = pending.open({
      send: (data) => ws.send(data),
      close: (code, reason) => ws.close(code, reason),
      terminate: () => ws.terminate(),
      ping: () => ws.ping(),
      get bufferedAmount() {
        return ws.bufferedAmount;
      },
      // The ws server this socket came from has maxPayload = the route's maxMessageBytes.
      enforcesMessageLimit: true,
    });
    ws.on('message', (data, isBinary) => events.message(isBinary ? bytesOf(data) : data.toString()));
    ws.on('pong', () => events.pong());
    socket.on('drain', () => events.drain());
    // A protocol error (invalid UTF-8: 1007, too big: 1009) is answered by ws with a close frame; the close event follows.
    ws.on('error', (error) => logger.debug({ err: error }, 'WebSocket protocol error'));
    ws.on('close', (code, reason) => {
      sockets.delete(socket);
      events.closed(code, reason.toString());
    });
  };

  return {
    upgrade({ pending, headers }, { req, socket, head }) {
      sockets.add(socket);
      extraHeaders.set(req, headers);
      if (pending.protocol !== undefined) chosenProtocol.set(req, pending.protocol);
      const server = serverFor(pending.maxMessageBytes);
      try {
        server.handleUpgrade(req, socket, head, (ws) => bind(ws, socket, pending));
      } catch (error) {
        sockets.delete(socket);
        logger.error({ err: error }, 'WebSocket upgrade failed');
        socket.destroy();
      }
      // ws refused the handshake itself (it answered 400 and closed): nothing was opened.
      socket.once('close', () => sockets.delete(socket));
    },
  };
}
