import { UnauthorizedException } from '../../index.js';

/**
 * The one message of every refused second factor: a wrong, used or unknown code or passkey, and an unknown or expired pending sign-in read alike.
 *
 * @example
 * problem.detail === INVALID_SECOND_FACTOR_MESSAGE; // 'Invalid second factor'
 */
export const INVALID_SECOND_FACTOR_MESSAGE = 'Invalid second factor';

/**
 * A fresh 401 `Invalid second factor`, `code: INVALID_SECOND_FACTOR`: the one refusal of every
 * factor check, whichever check failed.
 *
 * @example
 * if (step === undefined) throw invalidSecondFactor();
 */
export function invalidSecondFactor(): UnauthorizedException {
  return new UnauthorizedException(INVALID_SECOND_FACTOR_MESSAGE, { code: 'INVALID_SECOND_FACTOR' });
}

/**
 * Whether `error` is the refusal {@link invalidSecondFactor} makes (to tell a refused factor from
 * a store or throttle failure).
 *
 * @example
 * if (isInvalidSecondFactor(error)) events.record({ type: 'second-factor.failed', subject, purpose });
 */
export function isInvalidSecondFactor(error: unknown): boolean {
  return error instanceof UnauthorizedException && error.message === INVALID_SECOND_FACTOR_MESSAGE;
}
