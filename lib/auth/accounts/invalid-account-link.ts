import { BadRequestException } from '../../index.js';

/**
 * The message of every refused mail link: unknown, used, expired, for another purpose or for an
 * address the account no longer has all read the same.
 *
 * @example
 * err.message === INVALID_ACCOUNT_LINK_MESSAGE; // 'This link is invalid or has expired'
 */
export const INVALID_ACCOUNT_LINK_MESSAGE = 'This link is invalid or has expired';

/**
 * A fresh 400 for a refused mail link (see {@link INVALID_ACCOUNT_LINK_MESSAGE}).
 *
 * @example
 * if (consumed === undefined) throw invalidAccountLink();
 */
export function invalidAccountLink(): BadRequestException {
  return new BadRequestException(INVALID_ACCOUNT_LINK_MESSAGE);
}
