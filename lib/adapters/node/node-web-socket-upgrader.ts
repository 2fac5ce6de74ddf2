import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Logger } from '../../index.js';
import type { WebSocketEvents, WebSocketPort, WebSocketUpgrader } from '../../internal/web-sockets.js';

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
 * connection costs no port object and no closures. Its events go to the session from `emit`
 * itself, which `ws` calls for each of them: no listener is registered on a socket (four
 * listeners cost an idle connection ~100 bytes in its event table). Each upgrader makes a
 * subclass that says where protocol errors are logged (`ws` builds it: its `WebSocket` option).
 */
abstract class TesseraNodeWebSocket extends WebSocket implements WebSocketPort {
  /** The session's events, set as the upgrade completes. */
  events: WebSocketEvents | undefined = undefined;
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

  /** A protocol error (invalid UTF-8: 1007, too big: 1009): ws answers it with a close frame, and the close event follows. */
  protected abstract protocolError(error: Error): void;

  /**
   * The events `ws` emits on a server socket, delivered to the session: a message, a pong, the
   * close, a protocol error; 'ping' (ws answers it itself) and anything else go nowhere, as they
   * would with no listener. An 'error' is logged here, so it never throws as an unheard one would.
   */
  override emit(event: string | symbol, ...args: unknown[]): boolean {
    switch (event) {
      case 'message': {
        const [data, isBinary] = args as [RawData, boolean];
        this.events?.message(isBinary ? bytesOf(data) : data.toString());
        return true;
      }
      case 'pong':
        this.events?.pong();
        return true;
      case 'close': {
        const [code, reason] = args as [number, Buffer];
        this.events?.closed(code, reason.toString());
        return true;
      }
      case 'error':
        this.protocolError(args[0] as Error);
        return true;
      default:
        return super.emit(event, ...args);
    }
  }
}

/**
 * The upgrader of one Node server, over the `ws` package: the handshake and the frames are
 * `ws`'s (RFC 6455, UTF-8 checks, fragmented messages, the 1009 close past `maxPayload`); the
 * policy on top (validation, idle pings, send-queue limit, shutdown) is the core's, reached
 * through the port given to `pending.open`. One `ws` server per message limit, as `maxPayload`
 * is per server; none tracks its clients (the app's hub does). `handedOver` is told of each
 * socket `ws` took over: no longer an HTTP connection, graceful close leaves it to the app's
 * WebSocket shutdown.
 *
 * @example
 * const upgrader = createNodeWebSocketUpgrader(logger, (socket) => connections.delete(socket));
 * upgrader.upgrade(accepted, { req, socket, head });
 */
export function createNodeWebSocketUpgrader(logger: Logger, handedOver: (socket: Duplex) => void): WebSocketUpgrader<NodeUpgradeConnection, void> {
  const servers = new Map<number, WebSocketServer>();
  const extraHeaders = new WeakMap<IncomingMessage, Readonly<Record<string, string>>>();
  const chosenProtocol = new WeakMap<IncomingMessage, string>();
  // This server's sockets: their protocol errors go to its logger (a method of the class, not a field of each socket).
  class NodeWebSocket extends TesseraNodeWebSocket {
    protected protocolError(error: Error): void {
      logger.debug({ err: error }, 'WebSocket protocol error');
    }
  }

  const serverFor = (maxPayload: number): WebSocketServer => {
    let server = servers.get(maxPayload);
    if (server === undefined) {
      server = new WebSocketServer({
        noServer: true,
        maxPayload,
        // Compression of every message costs CPU and memory per connection (and is a known
        // vector for compression side channels); routes that want it can come later.
        perMessageDeflate: false,
        // The hub is the registry of open sockets; ws's own set would cost each socket an entry and a close listener.
        clientTracking: false,
        // The core already chose the subprotocol; ws must answer the same one.
        handleProtocols: (_offered, req) => chosenProtocol.get(req) ?? false,
        WebSocket: NodeWebSocket,
      });
      // Headers the app's middleware put on the 101 (a request id, a cookie) go out with it.
      server.on('headers', (lines, req) => {
        for (const [name, value] of Object.entries(extraHeaders.get(req) ?? {})) if (name !== 'sec-websocket-protocol') lines.push(`${name}: ${value}`);
      });
      servers.set(maxPayload, server);
    }
    return server;
  };

  return {
    upgrade({ pending, headers }, { req, socket, head }) {
      extraHeaders.set(req, headers);
      if (pending.protocol !== undefined) chosenProtocol.set(req, pending.protocol);
      const server = serverFor(pending.maxMessageBytes);
      try {
        // Synchronous (no verifyClient): by its return ws has opened the socket or refused the
        // handshake (answered 400 and destroyed the socket).
        server.handleUpgrade(req, socket, head, (ws) => {
          handedOver(socket);
          (ws as NodeWebSocket).events = pending.open(ws as NodeWebSocket);
        });
      } catch (error) {
        logger.error({ err: error }, 'WebSocket upgrade failed');
        socket.destroy();
      }
    },
  };
}
