import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { encodeBase64 } from '../../internal.js';

/** 32 bytes: 256 bits, well past the 128 a mailed token needs to be beyond guessing. */
const ACCOUNT_TOKEN_BYTES = 32;
const ACCOUNT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const encoder = new TextEncoder();

/**
 * A new mail token (verification, reset, email change): 32 bytes from the platform CSPRNG as 43
 * base64url characters, safe in a URL query without escaping.
 *
 * @example
 * const token = generateAccountToken(); // e.g. 'Zt3...' (43 characters)
 */
export function generateAccountToken(): string {
  return encodeBase64(crypto.getRandomValues(new Uint8Array(ACCOUNT_TOKEN_BYTES)));
}

/**
 * The key a mail token is stored under: SHA-256 of its UTF-8 bytes as 64 lowercase hex
 * characters, like refresh tokens. No salt is needed: the token is 256 random bits, and a leaked
 * table of hashes cannot be used as links.
 *
 * @example
 * hashAccountToken(token).length; // 64
 */
export function hashAccountToken(token: string): string {
  return bytesToHex(sha256(encoder.encode(token)));
}

/**
 * Whether `value` has the shape of a mail token (43 base64url characters). Anything else is
 * refused before hashing or reading the store.
 *
 * @example
 * isWellFormedAccountToken(generateAccountToken()); // true
 */
export function isWellFormedAccountToken(value: unknown): value is string {
  return typeof value === 'string' && ACCOUNT_TOKEN_PATTERN.test(value);
}
