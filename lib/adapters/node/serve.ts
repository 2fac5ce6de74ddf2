import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo, Socket } from 'node:net';
import type { App, ListeningServer, ServerAdapter } from '../../internal.js';
import { consoleLogger, type Answer, type Logger } from '../../internal.js';
import { DEFAULT_DRAIN_LIMIT, NodeIncoming, type NodeIncomingOptions } from './node-incoming.js';
import { onClientError } from './client-error.js';
import { writeInternalError, writeAnswer, type OpenStreams } from './write-answer.js';

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

/**
 * Options of {@link NodeServer.close}.
 *
 * @example
 * await server.close({ idleGraceMs: 500, streamGraceMs: 1_000, forceAfterMs: 10_000 });
 */
export interface CloseOptions {
  /** Destroys whatever is still open after this long, ms. Default: wait for everything. */
  readonly forceAfterMs?: number;
  /**
   * A keep-alive connection is closed once it has been idle this long, ms: no response in
   * progress and no byte received. A request written on it meanwhile is answered (with
   * `Connection: close`) instead of meeting a reset. Default 500.
   */
  readonly idleGraceMs?: number;
  /** Streaming responses (SSE, long downloads) still open after this long are ended cleanly and their producers cancelled, ms. Default 1 000. */
  readonly streamGraceMs?: number;
}

/**
 * Options of {@link createRequestListener}: the per-request part of {@link ServeOptions}.
 *
 * @example
 * createRequestListener(app, { drainLimit: 64 * 1024 });
 */
export type RequestListenerOptions = Pick<ServeOptions, 'drainLimit' | 'logger'>;


interface NodeListeners {
  readonly onRequest: (req: IncomingMessage, res: ServerResponse) => void;
  readonly onCheckContinue: (req: IncomingMessage, res: ServerResponse) => void;
  /** CONNECT: Node hands it over as a raw socket; answered through the app like any request (405). */
  readonly onConnect: (req: IncomingMessage, socket: Duplex) => void;
  /** Streaming responses in progress, each with a function ending it (see OpenStreams). */
  readonly streams: OpenStreams;
  closing: boolean;
}

function createNodeListeners(app: Pick<App, 'handle'>, options: RequestListenerOptions): NodeListeners {
  const logger = options.logger ?? consoleLogger;
  const plain: NodeIncomingOptions = { drainLimit: options.drainLimit ?? DEFAULT_DRAIN_LIMIT };
  const continuing: NodeIncomingOptions = { ...plain, expectContinue: true };

  const fail = (res: ServerResponse, error: unknown) => {
    logger.error('Unhandled error while serving a request', error);
    try {
      writeInternalError(res);
    } catch {
      res.destroy();
    }
  };
  const send = (incoming: NodeIncoming, answer: Answer) => {
    try {
      const written = writeAnswer(incoming.response, answer, incoming, handler.closing, logger, handler.streams);
      if (written !== undefined) written.catch((error: unknown) => fail(incoming.response, error));
    } catch (error) {
      fail(incoming.response, error);
    }
  };
  // The whole way of a request, once: the app dispatches it and replies with its answer, which is
  // written then and there (as the body ends, for a JSON route with a synchronous handler).
  const serveNodeRequest = (req: IncomingMessage, res: ServerResponse, incomingOptions: NodeIncomingOptions) => {
    const incoming = new NodeIncoming(req, res, incomingOptions);
    try {
      app.handle(incoming, (answer) => send(incoming, answer));
    } catch (error) {
      // handle never throws by contract; an app object of another make might.
      fail(res, error);
    }
  };

  const handler: NodeListeners = {
    onRequest: (req, res) => serveNodeRequest(req, res, plain),
    onCheckContinue: (req, res) => serveNodeRequest(req, res, continuing),
    onConnect: (req, socket) => {
      const { ServerResponse } = process.getBuiltinModule('node:http');
      const res = new ServerResponse(req);
      res.shouldKeepAlive = false;
      res.assignSocket(socket as IncomingMessage['socket']);
      res.once('finish', () => socket.end());
      serveNodeRequest(req, res, plain);
    },
    streams: new Set(),
    closing: false,
  };
  return handler;
}

/**
 * A `request` listener for a server you create yourself (https, a custom socket setup).
 * `serve` does the same and also answers `Expect: 100-continue` lazily, sets the timeouts and
 * closes gracefully.
 *
 * @example
 * import { createServer } from 'node:https';
 * createServer({ key, cert }, createRequestListener(app)).listen(443);
 */
export function createRequestListener(
  app: Pick<App, 'handle'>,
  options: RequestListenerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  return createNodeListeners(app, options).onRequest;
}

function hostForUrl(address: AddressInfo): string {
  return address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
}

/**
 * Serves an app over Node's `http` module; resolves once the socket listens and rejects if it
 * cannot (EADDRINUSE, EACCES). `app.listen(port, host)` calls this with defaults.
 *
 * @example
 * import { serve } from 'tessera-http/node';
 * const server = await serve(app, { port: 8080, host: '0.0.0.0' });
 * process.on('SIGTERM', () => void server.close({ forceAfterMs: 10_000 }).then(() => app.close()));
 */
export async function serve(app: Pick<App, 'handle'>, options: ServeOptions = {}): Promise<NodeServer> {
  // Looked up, not imported: `app.listen` reaches this file through a dynamic import that
  // bundlers for Workers and browsers inline, and a top-level `node:http` import would then make
  // every such bundle unloadable (or unbuildable) although it never starts a Node server.
  const { createServer } = process.getBuiltinModule('node:http');
  const handler = createNodeListeners(app, options);
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
  server.on('clientError', onClientError);
  if (options.idleTimeout !== undefined && options.idleTimeout > 0) server.timeout = options.idleTimeout;

  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(options.port ?? 3000, options.host ?? '127.0.0.1', () => {
      server.off('error', onError);
      resolve();
    });
  });
  const logger = options.logger ?? consoleLogger;
  // A listening server's errors are operational (e.g. EMFILE on accept); they must not crash the process.
  server.on('error', (error) => logger.error('HTTP server error', error));

  const connections = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  // http.Server#close also closes idle connections at once; the drain above decides that itself.
  const stopListening = process.getBuiltinModule('node:net').Server.prototype.close as (this: Server, callback?: (error?: Error) => void) => Server;

  const address = server.address() as AddressInfo;
  const url = `http://${hostForUrl(address)}:${address.port}`;
  let closed: Promise<void> | undefined;

  return {
    server,
    port: address.port,
    host: address.address,
    url,
    close(closeOptions) {
      closed ??= new Promise<void>((resolve, reject) => {
        // Responses written from now on say `Connection: close`, so busy connections end after
        // their answer. Idle keep-alive connections are closed only once they have stayed idle
        // for a grace period: closing one the moment a client writes a request on it would
        // reset that request with no answer (Node's own close() sweeps idle connections at once).
        handler.closing = true;
        const idleGraceMs = closeOptions?.idleGraceMs ?? 500;
        const seen = new Map<Socket, { bytes: number; since: number }>();
        const sweep = setInterval(() => {
          const now = Date.now();
          for (const socket of connections) {
            const busy = (socket as Socket & { _httpMessage?: unknown })._httpMessage != null;
            const mark = seen.get(socket);
            if (busy || mark === undefined || mark.bytes !== socket.bytesRead) seen.set(socket, { bytes: socket.bytesRead, since: now });
            else if (now - mark.since >= idleGraceMs) socket.destroy();
          }
        }, Math.max(10, Math.min(50, idleGraceMs / 4)));
        const endStreams = setTimeout(() => {
          for (const stop of [...handler.streams]) stop();
        }, closeOptions?.streamGraceMs ?? 1_000);
        const forceAfterMs = closeOptions?.forceAfterMs;
        const force = forceAfterMs === undefined ? undefined : setTimeout(() => server.closeAllConnections(), forceAfterMs);
        // net.Server's close: stop accepting, resolve once every connection is gone.
        stopListening.call(server, (error?: Error) => {
          clearInterval(sweep);
          clearTimeout(endStreams);
          if (force !== undefined) clearTimeout(force);
          if (error !== undefined && (error as NodeJS.ErrnoException).code !== 'ERR_SERVER_NOT_RUNNING') reject(error);
          else resolve();
        });
      });
      return closed;
    },
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
