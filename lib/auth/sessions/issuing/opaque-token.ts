import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { encodeBase64 } from '../../../internal/primitives.js';

// The one kind of secret token the auth module hands out and looks up by hash: refresh tokens
// and the tokens in account mails (verification, reset, e-mail change) are both made here.

/** Bytes of randomness in a token: 256 bits, beyond guessing. */
const OPAQUE_TOKEN_BYTES = 32;

/**
 * Length of an opaque token: 32 bytes as unpadded base64url.
 *
 * @example
 * generateOpaqueToken().length === OPAQUE_TOKEN_LENGTH; // true
 */
export const OPAQUE_TOKEN_LENGTH = 43;

const OPAQUE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const encoder = new TextEncoder();

/**
 * A new token: 32 bytes from the platform CSPRNG (`crypto.getRandomValues`, available on Node,
 * Deno, Bun and Workers), as 43 base64url characters, safe in a URL query without escaping.
 * Opaque on purpose (not a JWT): it carries nothing, so it is only good for a lookup by its hash,
 * and revoking it is immediate.
 *
 * @example
 * const token = generateOpaqueToken(); // e.g. 'q3Vx...' (43 characters)
 */
export function generateOpaqueToken(): string {
  return encodeBase64(crypto.getRandomValues(new Uint8Array(OPAQUE_TOKEN_BYTES)));
}

/**
 * The key a token is stored under: SHA-256 of its UTF-8 bytes, as 64 lowercase hex characters. A
 * plain hash (no salt, no key) is enough because the token is 256 random bits: there is nothing
 * to brute-force, and a leaked table of hashes cannot be replayed as tokens. Hex, not base64url,
 * so the value reads the same in any database console.
 *
 * @example
 * hashOpaqueToken('abc'); // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 */
export function hashOpaqueToken(token: string): string {
  return bytesToHex(sha256(encoder.encode(token)));
}

/**
 * Whether `value` has the shape of a token made by {@link generateOpaqueToken} (43 base64url
 * characters). Anything else is refused before hashing or touching a store, so a huge or
 * non-string input costs nothing.
 *
 * @example
 * isWellFormedOpaqueToken(generateOpaqueToken()); // true
 * isWellFormedOpaqueToken('eyJhbGciOiJIUzI1NiJ9.e30.x'); // false
 */
export function isWellFormedOpaqueToken(value: unknown): value is string {
  return typeof value === 'string' && OPAQUE_TOKEN_PATTERN.test(value);
}
