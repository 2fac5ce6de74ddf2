import type { IncomingMessage, ServerResponse } from 'node:http';
import { BadRequestException, type HttpException, type IncomingRequest } from '../../index.js';
import { NodeRequestBody } from './node-request-body.js';
import { absoluteUrl, readNodeTarget, type NodeTarget } from './request-target.js';
import { UpgradedNodeIncoming } from './upgraded-incoming.js';

/** Default for {@link NodeIncomingOptions.drainLimit}: 1 MiB. */
export const DEFAULT_DRAIN_LIMIT = 1_048_576;

/**
 * Options of {@link incomingFromNodeRequest}.
 *
 * @example
 * incomingFromNodeRequest(req, res, { drainLimit: 64 * 1024 });
 */
export interface NodeIncomingOptions {
  /**
   * The request came through the server's `checkContinue` event: `100 Continue` is sent only
   * when something reads the body, so a body refused up front (413 from Content-Length) is never
   * uploaded. Default false.
   */
  readonly expectContinue?: boolean;
  /**
   * Bytes of an unread or refused request body the server will read and throw away to keep a
   * keep-alive connection usable. A larger body closes the connection instead. Default 1 MiB.
   */
  readonly drainLimit?: number;
}

function clientGone(): DOMException {
  return new DOMException('The client closed the connection before the response was complete.', 'AbortError');
}

/**
 * The core's IncomingRequest over a Node `IncomingMessage`: a view of the request. Everything
 * the router needs (method, raw path and query) is sliced from `req.url`; headers are read from
 * `req.headers`; a web Request, an AbortController and the client-gone listener exist only if
 * someone asks. The body is its {@link NodeRequestBody}'s job.
 */
export class NodeIncoming implements IncomingRequest {
  readonly method: string;
  /** A HEAD request: the writer sends headers only. */
  readonly head: boolean;
  readonly path: string;
  readonly search: string;
  readonly invalid: HttpException | undefined;
  /** The request body: read, streamed, and settled when the answer goes out. */
  readonly body: NodeRequestBody;
  private readonly target: NodeTarget;
  private controller: AbortController | undefined = undefined;
  private request: Request | undefined = undefined;

  constructor(
    readonly raw: IncomingMessage,
    readonly response: ServerResponse,
    options?: NodeIncomingOptions,
  ) {
    this.method = raw.method ?? 'GET';
    this.head = this.method === 'HEAD';
    this.body = new NodeRequestBody(raw, response, options?.expectContinue ?? false, options?.drainLimit ?? DEFAULT_DRAIN_LIMIT);
    const target = readNodeTarget(raw);
    this.target = target;
    this.path = target.path;
    this.search = target.search;
    this.invalid = target.invalid;
  }

  get clientAddress(): string | undefined {
    return this.raw.socket.remoteAddress;
  }

  get scheme(): string {
    return (this.raw.socket as { encrypted?: boolean }).encrypted === true ? 'https' : 'http';
  }

  get protocolVersion(): string {
    return this.raw.httpVersion;
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      const controller = new AbortController();
      this.controller = controller;
      const res = this.response;
      // `req` emits 'close' once its body is consumed, so only the response says whether the
      // client left before the answer was complete.
      if (!res.writableFinished) {
        if (res.destroyed) controller.abort(clientGone());
        else res.once('close', () => res.writableFinished || controller.abort(clientGone()));
      }
    }
    return this.controller.signal;
  }

  header(name: string): string | null {
    const value = this.raw.headers[name];
    if (typeof value === 'string') return value;
    // Arrays only for repeated headers Node does not join itself; anything else is a prototype key.
    return Array.isArray(value) ? value.join(', ') : null;
  }

  readBody(limit: number, onBytes: (bytes: Uint8Array) => void, onError: (error: unknown) => void): void {
    // Once a Request owns the socket's stream, that stream is the one source of the bytes.
    if (this.request !== undefined && !this.body.hasRead()) NodeRequestBody.readFrom(this.request, limit, onBytes, onError);
    else this.body.read(limit, onBytes, onError);
  }

  /** The view a WebSocket's context keeps (see IncomingRequest.detach): no request, response nor body reader. */
  detach(socket: { readonly signal: AbortSignal }): IncomingRequest {
    return new UpgradedNodeIncoming(this.method, this.path, this.search, this.raw.headers, this.raw.socket, this.raw.httpVersion, socket, this.target.absolute);
  }

  toRequest(bodyLimit?: number): Request {
    if (this.request !== undefined) return this.request;
    const headers = new Headers();
    const raw = this.raw.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
    const init: RequestInit & { duplex?: 'half' } = { method: this.method, headers, signal: this.signal };
    if (this.method !== 'GET' && this.method !== 'HEAD') {
      const stream = this.body.stream(bodyLimit);
      if (stream !== undefined) {
        init.body = stream;
        init.duplex = 'half';
      }
    }
    try {
      this.request = new Request(absoluteUrl(this.raw, this.target), init);
    } catch (error) {
      if (error instanceof BadRequestException) throw error;
      // A method fetch refuses (TRACE) or a URL it cannot parse: the client's fault, not a 500.
      throw new BadRequestException(error instanceof Error ? error.message : 'The request cannot be represented as a web Request.');
    }
    return this.request;
  }
}

/**
 * Builds the core's IncomingRequest over a Node request/response pair, for custom servers.
 * No web Request is built unless `toRequest()` is called.
 *
 * @example
 * import { createServer } from 'node:http';
 * createServer((req, res) => {
 *   app.handle(incomingFromNodeRequest(req, res), (answer) => {
 *     // ...write the answer, or use createRequestListener(app), which does all of this
 *   });
 * });
 */
export function incomingFromNodeRequest(req: IncomingMessage, res: ServerResponse, options?: NodeIncomingOptions): IncomingRequest {
  return new NodeIncoming(req, res, options);
}
