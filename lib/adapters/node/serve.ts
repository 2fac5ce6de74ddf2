import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { App, ListeningServer, ServerAdapter } from '../../index.js';
import { jsonLogger, type Logger } from '../../index.js';
import { serverClose } from '../../internal/request-path.js';
import { listenError } from '../listen-error.js';
import { onClientError } from './client-error.js';
import { closeGracefully, type CloseOptions } from './graceful-close.js';
import { createNodeListeners } from './node-listeners.js';

/**
 * Options of {@link serve}. Every timeout is in milliseconds; 0 disables it.
 *
 * @example
 * await serve(app, { port: 8080, host: '0.0.0.0', requestTimeout: 60_000 });
 */
export interface ServeOptions {
  /** Port to listen on. Default 3000; 0 picks a free port (read it back from `server.port`). */
  readonly port?: number | undefined;
  /** Interface to bind. Default '127.0.0.1' (local only); use '0.0.0.0' or '::' in a container. */
  readonly host?: string | undefined;
  /** Time a client has to send the complete request headers. Default 10 000 (or `requestTimeout` if shorter). Must not exceed `requestTimeout`. */
  readonly headersTimeout?: number | undefined;
  /** Time a client has to send the complete request, body included. Default 30 000. */
  readonly requestTimeout?: number | undefined;
  /** How long an idle keep-alive connection stays open. Default 5 000. */
  readonly keepAliveTimeout?: number | undefined;
  /**
   * How often Node checks the two request timeouts; a timeout fires up to this much late.
   * Default 1 000 (Node's own default of 30 s would make a 10 s header timeout up to 40 s).
   */
  readonly connectionsCheckingInterval?: number | undefined;
  /** Closes a connection that neither sends nor receives for this long, e.g. a client that stops reading a stream. Default 0 (off). */
  readonly idleTimeout?: number | undefined;
  /**
   * Bytes of an unread or refused (413) request body read and thrown away to keep the
   * connection reusable; a bigger body closes the connection instead. Default 1 MiB.
   */
  readonly drainLimit?: number | undefined;
  /** Receives failures that cannot become a response (a stream that breaks mid-way). Default console. */
  readonly logger?: Logger | undefined;
}

/**
 * A running Node server: the `ListeningServer` that `app.listen` returns, plus the underlying
 * `http.Server` for what the adapter does not cover (upgrade events, metrics).
 *
 * @example
 * const server = await serve(app, { port: 0 });
 * await fetch(`${server.url}/health`);
 * await server.close({ forceAfterMs: 10_000 });
 */
export interface NodeServer extends ListeningServer {
  readonly server: Server;
  /**
   * Stops accepting connections, lets requests in flight finish, closes idle keep-alive
   * connections, and resolves once the server is closed. `forceAfterMs` destroys whatever is
   * still open after that long (a stream that never ends would otherwise hold `close` forever).
   */
  close(options?: CloseOptions): Promise<void>;
}


function hostForUrl(address: AddressInfo): string {
  return address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
}

/**
 * What `serve` needs of an app: its `handle`; its logger and `drain` when it has them (an App
 * does; a hand-made `{ handle }` gets `jsonLogger()` and closes without draining).
 */
export type ServedApp = Pick<App, 'handle'> & Partial<Pick<App, 'logger' | 'drain' | 'webSockets'>>;

/**
 * Serves an app over Node's `http` module; resolves once the socket listens and rejects if it
 * cannot (a port in use is a `TesseraError` with code `SERVER_PORT_IN_USE`; EACCES as Node gives it). `app.listen(port, host)` calls this with defaults.
 *
 * @example
 * import { serve } from 'tessera-http/node';
 * const server = await serve(app, { port: 8080, host: '0.0.0.0' });
 * process.on('SIGTERM', () => void server.close({ forceAfterMs: 10_000 }).then(() => app.close()));
 */
export async function serve(app: ServedApp, options: ServeOptions = {}): Promise<NodeServer> {
  // Looked up, not imported: a bundle that takes this file in without ever starting a Node server
  // (a bundler that resolved tessera-http's node condition for another platform) must still load.
  const { createServer } = process.getBuiltinModule('node:http');
  // The server's HTTP connections, for graceful close. A socket that became a WebSocket leaves
  // the set (the app's WebSocket shutdown closes it, with 1001 and a grace). One listener shared
  // by every connection (`this` is the socket), added with `on`: a socket closes once, and a
  // closure or `once`'s wrapper would cost each held connection two or three objects more.
  const connections = new Set<Socket>();
  function forget(this: Socket): void {
    connections.delete(this);
  }
  const handler = createNodeListeners(app, options, (socket) => {
    connections.delete(socket as Socket);
    // Off the socket too: an open WebSocket keeps no listener (nor set entry) of serve's.
    socket.off('close', forget);
  });
  const requestTimeout = options.requestTimeout ?? 30_000;
  const server = createServer(
    {
      // Node refuses a header timeout longer than the request timeout; a short requestTimeout alone must not throw.
      headersTimeout: options.headersTimeout ?? (requestTimeout > 0 ? Math.min(10_000, requestTimeout) : 10_000),
      requestTimeout,
      keepAliveTimeout: options.keepAliveTimeout ?? 5_000,
      connectionsCheckingInterval: options.connectionsCheckingInterval ?? 1_000,
      noDelay: true,
    },
    handler.onRequest,
  );
  server.on('checkContinue', handler.onCheckContinue);
  server.on('connect', handler.onConnect);
  server.on('upgrade', handler.onUpgrade);
  server.on('clientError', onClientError);
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.on('close', forget);
  });
  if (options.idleTimeout !== undefined && options.idleTimeout > 0) server.timeout = options.idleTimeout;

  const port = options.port ?? 3000;
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => reject(listenError(error, port, host));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const logger = options.logger ?? app.logger ?? jsonLogger();
  // A listening server's errors are operational (e.g. EMFILE on accept); they must not crash the process.
  server.on('error', (error) => logger.error({ err: error }, 'HTTP server error'));

  const address = server.address() as AddressInfo;
  const url = `http://${hostForUrl(address)}:${address.port}`;

  return {
    server,
    port: address.port,
    host: address.address,
    url,
    close: serverClose<CloseOptions>(app, (closeOptions) => closeGracefully(server, connections, handler, closeOptions)),
  };
}

/**
 * The Node server adapter for `app.listen`: `createApp(root, { server: nodeServer })`, then
 * `app.listen(port, host)` serves with {@link serve}'s defaults.
 *
 * @example
 * const app = await createApp(AppModule, { server: nodeServer });
 * const server = await app.listen(3000);
 */
export const nodeServer: ServerAdapter = (app, { port, host }) => serve(app, { port, host });
