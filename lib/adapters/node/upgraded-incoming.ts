import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import type { IncomingRequest } from '../../index.js';

/**
 * A Node upgrade request as its WebSocket's context keeps it once the upgrade is accepted
 * (`NodeIncoming.detach`): the method, the target, the header object Node parsed and the socket
 * (which `ws` holds for the connection's life anyway), and nothing else. The request, its
 * response and its body reader, about 1.5 KiB a connection, are let go. The HTTP exchange is
 * over: there is no body, and `signal` is the connection's.
 *
 * @example
 * ctx.detach(session); // the context now reads an UpgradedNodeIncoming
 */
export class UpgradedNodeIncoming implements IncomingRequest {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly search: string,
    private readonly headers: IncomingHttpHeaders,
    private readonly socket: Socket,
    readonly protocolVersion: string,
    private readonly connection: { readonly signal: AbortSignal },
    /** The URL as the request's Request had it, for a target given in absolute form. */
    private readonly absolute: string | undefined,
  ) {}

  get clientAddress(): string | undefined {
    return this.socket.remoteAddress;
  }

  get scheme(): string {
    return (this.socket as { encrypted?: boolean }).encrypted === true ? 'https' : 'http';
  }

  get signal(): AbortSignal {
    return this.connection.signal;
  }

  header(name: string): string | null {
    const value = this.headers[name];
    if (typeof value === 'string') return value;
    return Array.isArray(value) ? value.join(', ') : null;
  }

  readBody(_limit: number, onBytes: (bytes: Uint8Array) => void): void {
    onBytes(new Uint8Array(0));
  }

  /** A bodiless web Request of the upgrade (built anew each time: nothing is kept for the socket's life). */
  toRequest(): Request {
    const headers = new Headers();
    for (const [name, value] of Object.entries(this.headers)) {
      if (typeof value === 'string') headers.append(name, value);
      else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    }
    const host = this.headers.host ?? `${this.socket.localAddress?.includes(':') === true ? `[${this.socket.localAddress}]` : (this.socket.localAddress ?? '127.0.0.1')}:${this.socket.localPort ?? 80}`;
    const url = this.absolute ?? `${this.scheme}://${host}${this.path}${this.search === '' ? '' : `?${this.search}`}`;
    return new Request(url, { method: this.method, headers, signal: this.signal });
  }
}
