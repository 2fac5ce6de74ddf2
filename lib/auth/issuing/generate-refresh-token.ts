import { encodeBase64 } from '../../internal.js';

/** Bytes of randomness in a refresh token: 256 bits, beyond guessing. */
const REFRESH_TOKEN_BYTES = 32;

/**
 * Length of a refresh token: 32 bytes as unpadded base64url.
 *
 * @example
 * generateRefreshToken().length === REFRESH_TOKEN_LENGTH; // true
 */
export const REFRESH_TOKEN_LENGTH = 43;

const REFRESH_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * A new refresh token: 32 bytes from the platform CSPRNG (`crypto.getRandomValues`, available on
 * Node, Deno, Bun and Workers), as 43 base64url characters. Opaque on purpose (not a JWT): it
 * carries nothing, so it is only good for a lookup by its hash, and revoking it is immediate.
 *
 * @example
 * const token = generateRefreshToken(); // e.g. 'q3Vx...' (43 characters)
 */
export function generateRefreshToken(): string {
  return encodeBase64(crypto.getRandomValues(new Uint8Array(REFRESH_TOKEN_BYTES)));
}

/**
 * Whether `value` has the shape of a refresh token this service issues (43 base64url
 * characters). Anything else is refused before hashing or touching the store, so a huge or
 * non-string input costs nothing.
 *
 * @example
 * isWellFormedRefreshToken(generateRefreshToken()); // true
 * isWellFormedRefreshToken('eyJhbGciOiJIUzI1NiJ9.e30.x'); // false
 */
export function isWellFormedRefreshToken(value: unknown): value is string {
  return typeof value === 'string' && REFRESH_TOKEN_PATTERN.test(value);
}
