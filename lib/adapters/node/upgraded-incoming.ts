import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import type { IncomingRequest } from '../../index.js';

/** Separates the parts of a detached request's head; a part that holds one has it escaped (see `escape`). */
const LINE = '\n';

/** `\` becomes `\\` and a line feed `\n` (two characters), so that a part is always one line. */
function escape(part: string): string {
  return part.includes('\\') || part.includes(LINE) ? part.replaceAll('\\', '\\\\').replaceAll(LINE, '\\n') : part;
}

function unescape(part: string): string {
  return part.includes('\\') ? part.replace(/\\([\\n])/g, (_, c: string) => (c === 'n' ? LINE : '\\')) : part;
}

/**
 * The request's method, path, query, HTTP version and headers as one string, a part a line:
 * `GET\n/live\nroom=1\n1.1\nhost:example.test\nupgrade:websocket...`, a header a line (a
 * repeated header Node keeps as a list, one line per value). Node's parser never gives a line
 * feed inside any of them (a folded header line arrives joined with a space); one would be
 * escaped all the same.
 */
function headOf(method: string, path: string, search: string, version: string, headers: IncomingHttpHeaders): string {
  const parts = [escape(method), escape(path), escape(search), escape(version)];
  for (const name in headers) {
    if (!Object.hasOwn(headers, name)) continue;
    const value = headers[name];
    if (typeof value === 'string') parts.push(`${name}:${escape(value)}`);
    else if (Array.isArray(value)) for (const item of value) parts.push(`${name}:${escape(item)}`);
  }
  // Joined, not concatenated: one flat string, where `+=` would keep a tree of pieces (and the pieces).
  return parts.join(LINE);
}

/** Where the nth part of the head starts (0: the method, 4: the first header), or -1 past the last. */
function partStart(head: string, n: number): number {
  let at = 0;
  for (let i = 0; i < n && at !== -1; i++) {
    const end = head.indexOf(LINE, at);
    at = end === -1 ? -1 : end + 1;
  }
  return at;
}

function partAt(head: string, n: number): string {
  const start = partStart(head, n);
  if (start === -1) return '';
  const end = head.indexOf(LINE, start);
  return unescape(head.slice(start, end === -1 ? head.length : end));
}

/**
 * A Node upgrade request as its WebSocket's context keeps it once the upgrade is accepted
 * (`NodeIncoming.detach`): the method, the target, the HTTP version and the headers in one
 * string (a header object and a string per value cost an idle connection ~300 bytes; one string
 * ~150), the socket (which `ws` holds for the connection's life anyway), and nothing else. The
 * request, its response and its body reader, about 1.5 KiB a connection, are let go. The HTTP
 * exchange is over: there is no body, and `signal` is the connection's. Reads after the upgrade
 * are rare (a handler that looks at a header or the path), so each one scans the string.
 *
 * @example
 * ctx.detach(session); // the context now reads an UpgradedNodeIncoming
 */
export class UpgradedNodeIncoming implements IncomingRequest {
  private readonly head: string;

  constructor(
    method: string,
    path: string,
    search: string,
    headers: IncomingHttpHeaders,
    private readonly socket: Socket,
    protocolVersion: string,
    private readonly connection: { readonly signal: AbortSignal },
    /** The URL as the request's Request had it, for a target given in absolute form. */
    private readonly absolute: string | undefined,
  ) {
    this.head = headOf(method, path, search, protocolVersion, headers);
  }

  get method(): string {
    return partAt(this.head, 0);
  }

  get path(): string {
    return partAt(this.head, 1);
  }

  get search(): string {
    return partAt(this.head, 2);
  }

  get protocolVersion(): string {
    return partAt(this.head, 3);
  }

  get clientAddress(): string | undefined {
    return this.socket.remoteAddress;
  }

  get scheme(): string {
    return (this.socket as { encrypted?: boolean }).encrypted === true ? 'https' : 'http';
  }

  get signal(): AbortSignal {
    return this.connection.signal;
  }

  /** The header's value as Node's header object gave it (a repeated one Node keeps as a list: its values joined with `, `), or null. */
  header(name: string): string | null {
    // No header name holds a colon or a line feed: such a name would match across a line.
    if (name.includes(':') || name.includes(LINE)) return null;
    const head = this.head;
    const headers = partStart(head, 4);
    if (headers === -1) return null;
    const key = `${LINE}${name}:`;
    let found: string | null = null;
    // From the line feed before the first header: the request line's parts are never matched.
    for (let at = head.indexOf(key, headers - 1); at !== -1; at = head.indexOf(key, at + 1)) {
      const start = at + key.length;
      const end = head.indexOf(LINE, start);
      const value = unescape(head.slice(start, end === -1 ? head.length : end));
      found = found === null ? value : `${found}, ${value}`;
    }
    return found;
  }

  readBody(_limit: number, onBytes: (bytes: Uint8Array) => void): void {
    onBytes(new Uint8Array(0));
  }

  /** A bodiless web Request of the upgrade (built anew each time: nothing is kept for the socket's life). */
  toRequest(): Request {
    const headers = new Headers();
    const lines = this.head.split(LINE);
    for (let i = 4; i < lines.length; i++) {
      const line = lines[i] as string;
      const colon = line.indexOf(':');
      headers.append(line.slice(0, colon), unescape(line.slice(colon + 1)));
    }
    const search = this.search;
    const host = this.header('host') ?? `${this.socket.localAddress?.includes(':') === true ? `[${this.socket.localAddress}]` : (this.socket.localAddress ?? '127.0.0.1')}:${this.socket.localPort ?? 80}`;
    const url = this.absolute ?? `${this.scheme}://${host}${this.path}${search === '' ? '' : `?${search}`}`;
    return new Request(url, { method: this.method, headers, signal: this.signal });
  }
}
