import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

const encoder = new TextEncoder();

/**
 * The key a refresh token is stored under: SHA-256 of its UTF-8 bytes, as 64 lowercase hex
 * characters. A plain hash (no salt, no key) is enough because the token is 256 random bits:
 * there is nothing to brute-force, and a leaked table of hashes cannot be replayed as tokens.
 * Hex, not base64url, so the value reads the same in any database console.
 *
 * @example
 * hashRefreshToken('abc'); // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 */
export function hashRefreshToken(token: string): string {
  return bytesToHex(sha256(encoder.encode(token)));
}
