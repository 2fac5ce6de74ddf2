import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { BadRequestException, MethodNotAllowedException, type HttpException } from '../../index.js';
import { normalizeHost, parseRequestTarget } from '../../internal/request-path.js';

/** Host header: reg-name, IPv4 or [IPv6], optional port; nothing that could move the path. */
const VALID_HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(?::\d{0,5})?$/;

/**
 * What the Node adapter makes of a request line and its Host headers: the path and query the
 * router matches (exactly those of the URL a handler sees), the absolute URL a web Request gets,
 * or the error to answer instead of routing.
 */
export interface NodeTarget {
  readonly path: string;
  readonly search: string;
  /** Set for an absolute-form target: the URL as the client sent it, normalized. */
  readonly absolute: string | undefined;
  readonly invalid: HttpException | undefined;
}

const ROOT: Omit<NodeTarget, 'invalid'> = { path: '/', search: '', absolute: undefined };

/** How many Host headers the request carries (Node keeps only the first in `req.headers`). */
function countHostHeaders(raw: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length === 4 && name.toLowerCase() === 'host') count++;
  }
  return count;
}

/**
 * Reads the target of a Node request (RFC 9112 §3.2) with the core's one target parser and
 * checks what only the adapter sees: more than one Host header is 400 (§3.2); an absolute-form
 * target whose authority disagrees with Host is 400; `*` is 400; `CONNECT` (authority-form) is
 * 405, since this server tunnels nothing.
 *
 * @example
 * const { path, search, invalid } = readNodeTarget(req);
 */
export function readNodeTarget(req: IncomingMessage): NodeTarget {
  if (req.method === 'CONNECT') return { ...ROOT, invalid: new MethodNotAllowedException([], 'This server does not tunnel: CONNECT is not supported.') };
  const target = parseRequestTarget(req.url ?? '/');
  if (countHostHeaders(req.rawHeaders) > 1) return { ...ROOT, invalid: new BadRequestException('The request has more than one Host header.') };
  switch (target.kind) {
    case 'origin':
      return { path: target.path, search: target.search, absolute: undefined, invalid: undefined };
    case 'absolute': {
      const host = req.headers.host;
      if (host !== undefined && normalizeHost(target.scheme, host) !== target.host) {
        return { ...ROOT, invalid: new BadRequestException('The Host header disagrees with the authority of the request target.') };
      }
      const query = target.search === '' ? '' : `?${target.search}`;
      return { path: target.path, search: target.search, absolute: `${target.scheme}://${target.host}${target.path}${query}`, invalid: undefined };
    }
    case 'asterisk':
      return { ...ROOT, invalid: new BadRequestException('The asterisk-form request target (*) is not supported.') };
    case 'authority':
      return { ...ROOT, invalid: new BadRequestException('An authority-form request target is only valid with CONNECT.') };
    case 'invalid':
      return { ...ROOT, invalid: new BadRequestException(target.reason) };
  }
}

/**
 * The full URL of a request for a web Request: for an origin-form target, the scheme from the
 * socket and the authority from Host, then the path and query the router matched. Throws a 400
 * for a Host that would change the URL's path (`Host: evil.test/x?`), which would otherwise let
 * the path a handler sees differ from the one the router matched.
 *
 * @example
 * new Request(absoluteUrl(req, target), init);
 */
export function absoluteUrl(req: IncomingMessage, target: NodeTarget): string {
  if (target.absolute !== undefined) return target.absolute;
  const socket = req.socket as Partial<Pick<TLSSocket, 'encrypted'>> & IncomingMessage['socket'];
  const scheme = socket.encrypted === true ? 'https' : 'http';
  let host = req.headers.host;
  if (host === undefined || host === '') {
    // HTTP/1.0 clients may omit Host; the address they reached is the honest fallback.
    const local = socket.localAddress ?? '127.0.0.1';
    host = `${local.includes(':') ? `[${local}]` : local}:${socket.localPort ?? 80}`;
  } else if (!VALID_HOST.test(host)) {
    throw new BadRequestException('The Host header is not a valid host.');
  }
  return `${scheme}://${host}${target.path}${target.search === '' ? '' : `?${target.search}`}`;
}
