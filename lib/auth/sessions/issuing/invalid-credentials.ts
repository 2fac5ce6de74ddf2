import { UnauthorizedException } from '../../../index.js';

/**
 * The one message of every refused sign-in and refresh. Unknown identifier, wrong password,
 * disabled account, and unknown, revoked, rotated or expired refresh token all read the same, so
 * a caller learns nothing about which it was.
 *
 * @example
 * err.message === INVALID_CREDENTIALS_MESSAGE; // 'Invalid credentials'
 */
export const INVALID_CREDENTIALS_MESSAGE = 'Invalid credentials';

/**
 * A fresh 401 `Invalid credentials`. A new instance per failure (not a shared one) so that stack
 * traces and any per-error state never leak between requests.
 *
 * @example
 * if (!account) throw invalidCredentials();
 */
export function invalidCredentials(): UnauthorizedException {
  return new UnauthorizedException(INVALID_CREDENTIALS_MESSAGE);
}
