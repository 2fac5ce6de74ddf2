import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { App } from '../../index.js';
import { jsonLogger, type Answer, type Logger } from '../../index.js';
import { settleUpgrade } from '../../internal/web-sockets.js';
import { createNodeWebSocketUpgrader } from './node-web-socket-upgrader.js';
import { DEFAULT_DRAIN_LIMIT, NodeIncoming, type NodeIncomingOptions } from './node-incoming.js';
import { writeInternalError, writeAnswer, type OpenStreams } from './write-answer.js';

/**
 * Options of {@link createRequestListener}: the per-request part of {@link ServeOptions}.
 *
 * @example
 * createRequestListener(app, { drainLimit: 64 * 1024 });
 */
export interface RequestListenerOptions {
  /**
   * Bytes of an unread or refused (413) request body read and thrown away to keep the
   * connection reusable; a bigger body closes the connection instead. Default 1 MiB.
   */
  readonly drainLimit?: number | undefined;
  /** Receives failures that cannot become a response (a stream that breaks mid-way). Default console. */
  readonly logger?: Logger | undefined;
}


/** What an upgrade's reply sees when the socket went to `ws`: nothing is left to write. */
const HANDED_OVER: unique symbol = Symbol('handed over to ws');

/** The listeners `serve` installs on its server, and the state graceful close needs from them. */
export interface NodeListeners {
  readonly onRequest: (req: IncomingMessage, res: ServerResponse) => void;
  readonly onCheckContinue: (req: IncomingMessage, res: ServerResponse) => void;
  /** CONNECT: Node hands it over as a raw socket; answered through the app like any request (405). */
  readonly onConnect: (req: IncomingMessage, socket: Duplex) => void;
  /**
   * An upgrade request (`Upgrade: websocket`): served through the app like any request; a
   * WebSocket route's 101 hands the socket to `ws`, any other answer is written and the socket closed.
   */
  readonly onUpgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** Streaming responses in progress, each with a function ending it (see OpenStreams). */
  readonly streams: OpenStreams;
  closing: boolean;
}

/**
 * Builds the request, checkContinue and CONNECT listeners for one app: each request walks the
 * app's one path once, and its reply is written by `writeAnswer`.
 *
 * @example
 * const listeners = createNodeListeners(app, { drainLimit: 65_536 });
 * server.on('request', listeners.onRequest);
 */
export function createNodeListeners(
  app: Pick<App, 'handle'> & Partial<Pick<App, 'logger'>>,
  options: RequestListenerOptions,
  /** Told of each socket `ws` took over as a WebSocket: from then on the app's WebSocket shutdown closes it, not graceful close. */
  handedOver: (socket: Duplex) => void = () => {},
): NodeListeners {
  const logger = options.logger ?? app.logger ?? jsonLogger();
  const plain: NodeIncomingOptions = { drainLimit: options.drainLimit ?? DEFAULT_DRAIN_LIMIT };
  const continuing: NodeIncomingOptions = { ...plain, expectContinue: true };

  const fail = (res: ServerResponse, error: unknown) => {
    logger.error({ err: error }, 'Unhandled error while serving a request');
    try {
      writeInternalError(res);
    } catch {
      res.destroy();
    }
  };
  const send = (incoming: NodeIncoming, answer: Answer) => {
    try {
      // A 101 outside an upgrade request has no socket to switch: settled to its refusal.
      const written = writeAnswer(incoming.response, settleUpgrade(incoming, answer), incoming, handler.closing, logger, handler.streams);
      if (written !== undefined) written.catch((error: unknown) => fail(incoming.response, error));
    } catch (error) {
      fail(incoming.response, error);
    }
  };
  // The whole way of a request, once: the app dispatches it and replies with its answer, which is
  // written then and there (as the body ends, for a JSON route with a synchronous handler).
  const serveNodeRequest = (req: IncomingMessage, res: ServerResponse, incomingOptions: NodeIncomingOptions, reply = send) => {
    const incoming = new NodeIncoming(req, res, incomingOptions);
    try {
      app.handle(incoming, (answer) => reply(incoming, answer));
    } catch (error) {
      // handle never throws by contract; an app object of another make might.
      fail(res, error);
    }
  };
  // CONNECT and upgrades arrive as a raw socket: a response is written on it by hand, then it is closed.
  const socketResponse = (req: IncomingMessage, socket: Duplex): ServerResponse => {
    const { ServerResponse } = process.getBuiltinModule('node:http');
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as IncomingMessage['socket']);
    res.once('finish', () => socket.end());
    return res;
  };
  const webSocketUpgrader = createNodeWebSocketUpgrader(logger, handedOver);

  const handler: NodeListeners = {
    onRequest: (req, res) => serveNodeRequest(req, res, plain),
    onCheckContinue: (req, res) => serveNodeRequest(req, res, continuing),
    onConnect: (req, socket) => serveNodeRequest(req, socketResponse(req, socket), plain),
    onUpgrade: (req, socket, head) => {
      const res = socketResponse(req, socket);
      serveNodeRequest(req, res, plain, (incoming, answer) => {
        const settled = settleUpgrade<typeof HANDED_OVER>(incoming, answer, (accepted) => {
          res.detachSocket(socket as IncomingMessage['socket']);
          webSocketUpgrader.upgrade(accepted, { req, socket, head });
          return HANDED_OVER;
        });
        if (settled !== HANDED_OVER) send(incoming, settled);
      });
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
  app: Pick<App, 'handle'> & Partial<Pick<App, 'logger'>>,
  options: RequestListenerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  return createNodeListeners(app, options).onRequest;
}

