import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { BadRequestException } from '../../http/http-exception.js';
import { splitUrl } from '../../http/incoming-request.js';

/** Host header: reg-name, IPv4 or [IPv6], optional port; nothing that could move the path. */
const VALID_HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(?::\d{0,5})?$/;

/**
 * The raw path and query of a request target, by scanning (no `new URL`, nothing normalized).
 * Origin-form (`/a?b`) is the hot path; absolute-form is what clients send to proxies; anything
 * else (`OPTIONS *`) stays as sent so that no route matches it by accident.
 */
export function splitTarget(url: string): { path: string; search: string } {
  if (url.charCodeAt(0) === 47 /* '/' */) {
    const query = url.indexOf('?');
    return query === -1 ? { path: url, search: '' } : { path: url.slice(0, query), search: url.slice(query + 1) };
  }
  if (url.startsWith('http://') || url.startsWith('https://')) return splitUrl(url);
  return { path: url, search: '' };
}

/**
 * The full URL of a request for a web Request: scheme from the socket, authority from Host.
 * Throws a 400 for a Host that would change the URL's path (`Host: evil.test/x?`), which would
 * otherwise let the path a handler sees differ from the one the router matched.
 */
export function absoluteUrl(req: IncomingMessage): string {
  const url = req.url ?? '/';
  if (url.startsWith('http://') || url.startsWith('https://')) return url;
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
  return `${scheme}://${host}${url.charCodeAt(0) === 47 ? url : '/'}`;
}
