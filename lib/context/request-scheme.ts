import { Context, type RequestContext } from './request-context.js';

/**
 * Whether the request reached this server over TLS, as the connection says (never a forwarding
 * header): the Node adapter reads the socket, the fetch runtimes (Bun, Deno, workerd) the
 * request URL their server built. Read from the adapter's incoming request when the context is
 * the core's own, so no web `Request` is built for it on Node.
 *
 * @example
 * if (requestScheme(ctx) === 'https') headers['strict-transport-security'] = 'max-age=31536000';
 */
export function requestScheme(ctx: RequestContext): 'http' | 'https' {
  const scheme = ctx instanceof Context ? ctx.incoming.scheme : undefined;
  if (scheme !== undefined) return scheme === 'https' ? 'https' : 'http';
  return ctx.request.url.startsWith('https:') ? 'https' : 'http';
}
