import { UnauthorizedException } from '../internal.js';

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
