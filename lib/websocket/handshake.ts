import { ALLOWED_ORIGINS, originPolicyOf } from '../context/origin-policy.js';
import type { RequestContext } from '../context/request-context.js';
import { BadRequestException, ForbiddenException, HttpException } from '../http/http-exception.js';
import type { WebSocketSpec } from '../routing/web-socket-spec.js';
import { JSON_PROTOCOL, TESSERA_PROTOCOL } from './subprotocols.js';

export { TESSERA_PROTOCOL, BEARER_PROTOCOL_PREFIX } from './subprotocols.js';

function hasToken(header: string | null, token: string): boolean {
  if (header === null) return false;
  for (const part of header.split(',')) if (part.trim().toLowerCase() === token) return true;
  return false;
}

/** The host of an origin (`https://app.example.com:8443` -> `app.example.com:8443`), or undefined when it is not one. */
function hostOf(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.origin === origin ? url.host : undefined;
  } catch {
    return undefined;
  }
}

function originAllowed(ctx: RequestContext, origins: WebSocketSpec['origins'], origin: string): boolean {
  if (origins === '*') return true;
  if (origins !== undefined) return origins.includes(origin);
  // A page this host served (the scheme may differ behind a TLS proxy), then the app's origin
  // policy (createApp's origins), or the deprecated cors({ origin })'s where that middleware ran.
  const host = hostOf(origin);
  if (host !== undefined && host === ctx.header('host')?.toLowerCase()) return true;
  const fromCors = ctx.get(ALLOWED_ORIGINS);
  return fromCors === undefined ? originPolicyOf(ctx).admits(origin, ctx) : fromCors(origin);
}

/**
 * Checks an upgrade request against RFC 6455 and the route's policy, and picks the subprotocol.
 * Throws the refusal as an HttpException: 426 without the upgrade headers or with another
 * version, 400 for a malformed key or no subprotocol in common, 403 for an origin the policy
 * refuses. Nothing of a bearer-token entry appears in a message.
 *
 * @example
 * const protocol = checkHandshake(ctx, spec); // 'tessera' when the client offered it ('tessera.json' for a route with a message schema)
 */
export function checkHandshake(ctx: RequestContext, spec: WebSocketSpec): string | undefined {
  if (ctx.method !== 'GET' || !hasToken(ctx.header('upgrade'), 'websocket') || !hasToken(ctx.header('connection'), 'upgrade')) {
    throw new HttpException(426, 'This route speaks WebSocket: open it with a GET carrying Upgrade: websocket and Connection: Upgrade.', undefined, {
      upgrade: 'websocket',
      connection: 'Upgrade',
    });
  }
  if (ctx.header('sec-websocket-version')?.trim() !== '13') {
    throw new HttpException(426, 'Only WebSocket version 13 is spoken here.', undefined, { 'sec-websocket-version': '13' });
  }
  const key = ctx.header('sec-websocket-key');
  if (key === null || !/^[A-Za-z0-9+/]{21}[AQgw]==$/.test(key.trim())) {
    throw new BadRequestException('Sec-WebSocket-Key must be 16 bytes in base64.');
  }
  const origin = ctx.header('origin');
  if (origin !== null && !originAllowed(ctx, spec.origins, origin)) {
    throw new ForbiddenException('This origin may not open this WebSocket.');
  }
  const offered = ctx.header('sec-websocket-protocol');
  if (offered === null) return undefined;
  const offers = offered.split(',').map((p) => p.trim());
  // A route that JSON-parses every text message says so with `tessera.json`, after its own protocols.
  const speaks = [...spec.protocols, ...(spec.message === undefined ? [] : [JSON_PROTOCOL]), TESSERA_PROTOCOL];
  for (const spoken of speaks) if (offers.includes(spoken)) return spoken;
  throw new BadRequestException(`None of the offered subprotocols is spoken here; this route speaks: ${speaks.join(', ')}.`);
}
