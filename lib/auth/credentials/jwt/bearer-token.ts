import { BEARER_PROTOCOL_PREFIX, UnauthorizedException, type RequestContext } from '../../../index.js';

/**
 * The single 401 every bearer failure produces: a missing or malformed header, a bad, expired or
 * foreign token, or claims failing the schema. Identical on purpose: the response must not tell an
 * attacker which check failed.
 *
 * @example
 * throw bearerFailure();
 */
export function bearerFailure(): UnauthorizedException {
  return new UnauthorizedException('Missing or invalid bearer token', undefined, { 'www-authenticate': 'Bearer' });
}

/**
 * Extracts the token from `Authorization: Bearer <token>`. The scheme is case-insensitive
 * (RFC 9110); one or more spaces may follow it; the token itself must be non-empty and contain
 * no whitespace. Anything else is undefined.
 *
 * @example
 * readBearerToken('bearer eyJ...'); // 'eyJ...'
 * readBearerToken('Basic abc');     // undefined
 */
export function readBearerToken(header: string | null): string | undefined {
  if (header === null || header.length < 8) return undefined;
  if (header.slice(0, 6).toLowerCase() !== 'bearer' || header.charCodeAt(6) !== 32) return undefined;
  let start = 7;
  while (header.charCodeAt(start) === 32) start++;
  const token = header.slice(start);
  if (token === '' || /\s/.test(token)) return undefined;
  return token;
}

/**
 * The bearer token of a request: from `Authorization`, or, on a WebSocket upgrade without
 * `Authorization` (a browser's `WebSocket` cannot set headers), from the one
 * `tessera.bearer.<token>` entry of `Sec-WebSocket-Protocol`. A request that has an
 * `Authorization` header is judged by it alone; two bearer entries are no token. The server never
 * chooses nor echoes the entry (see the README's WebSocket section for the trade-off).
 *
 * @example
 * // new WebSocket(url, ['tessera', `tessera.bearer.${token}`]) in the browser
 * bearerTokenOf(ctx); // the token
 */
export function bearerTokenOf(ctx: Pick<RequestContext, 'header'>): string | undefined {
  const authorization = ctx.header('authorization');
  if (authorization !== null || ctx.header('upgrade')?.toLowerCase() !== 'websocket') return readBearerToken(authorization);
  const entries = (ctx.header('sec-websocket-protocol') ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry.startsWith(BEARER_PROTOCOL_PREFIX));
  if (entries.length !== 1) return undefined;
  const token = (entries[0] as string).slice(BEARER_PROTOCOL_PREFIX.length);
  return token === '' ? undefined : token;
}
