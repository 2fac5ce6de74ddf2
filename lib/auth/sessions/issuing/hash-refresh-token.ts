import { hashOpaqueToken } from './opaque-token.js';

/**
 * The key a refresh token is stored under: SHA-256 of its UTF-8 bytes, as 64 lowercase hex
 * characters (see `hashOpaqueToken` for why a plain hash is enough).
 *
 * @example
 * hashRefreshToken('abc'); // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 */
export function hashRefreshToken(token: string): string {
  return hashOpaqueToken(token);
}
