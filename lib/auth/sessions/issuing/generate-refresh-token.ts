import { OPAQUE_TOKEN_LENGTH, generateOpaqueToken, isWellFormedOpaqueToken } from './opaque-token.js';

/**
 * Length of a refresh token: 32 bytes as unpadded base64url.
 *
 * @example
 * generateRefreshToken().length === REFRESH_TOKEN_LENGTH; // true
 */
export const REFRESH_TOKEN_LENGTH = OPAQUE_TOKEN_LENGTH;

/**
 * A new refresh token: an opaque token (see `generateOpaqueToken`), 32 bytes from the platform
 * CSPRNG as 43 base64url characters. Opaque on purpose (not a JWT): it carries nothing, so it is
 * only good for a lookup by its hash, and revoking it is immediate.
 *
 * @example
 * const token = generateRefreshToken(); // e.g. 'q3Vx...' (43 characters)
 */
export function generateRefreshToken(): string {
  return generateOpaqueToken();
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
  return isWellFormedOpaqueToken(value);
}
