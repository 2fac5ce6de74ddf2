import { BadRequestException } from '../../index.js';
import type { Awaitable } from '../shared/awaitable.js';
import { AuthConfigError } from '../credentials/jwt/index.js';
import { isCommonPassword, loadCommonPasswords } from './common-passwords.js';

/**
 * Default minimum length in characters (code points).
 *
 * @example
 * resolvePasswordPolicy().minLength === DEFAULT_PASSWORD_MIN_LENGTH; // true
 */
export const DEFAULT_PASSWORD_MIN_LENGTH = 12;
/**
 * Default maximum size in UTF-8 bytes; also the most any policy may allow (sign-in's own bound).
 *
 * @example
 * resolvePasswordPolicy().maxBytes === DEFAULT_PASSWORD_MAX_BYTES; // true
 */
export const DEFAULT_PASSWORD_MAX_BYTES = 1024;

/**
 * The password policy of sign-up, reset and change (`accounts.passwordPolicy`).
 *
 * - `minLength` (characters, counted as Unicode code points; default 12, at least 8): NIST SP
 *   800-63B asks verifiers for at least 8 characters for a password the user chose and
 *   recommends no composition rules (no "one digit, one symbol"); revision 4 asks 15 for a
 *   password that is the only factor. 12 is the default as a middle ground; raise it freely.
 * - `maxBytes` (UTF-8 bytes; default 1024, from 64 to 1024): bounds what one request can make
 *   Argon2id digest and stays within what the sign-in route accepts, so every password that
 *   passes the policy can sign in. NIST asks to allow at least 64 characters.
 * - `refuseCommon` (default true): refuses a password that, case-folded, is on a list of the
 *   49,233 most common passwords (`@zxcvbn-ts/language-common`; ASVS 5.0 6.2.4 and 6.2.12), with
 *   a 400 whose details are `{ field: 'password', commonPassword: true }`. The list is loaded
 *   once per process, when the policy is resolved. `false` only if `check` does better.
 * - `check`: your own rule (a breached-password check such as `pwnedPasswordCheck`, a
 *   dictionary of your product's words), answering the reason a password is refused, or
 *   undefined to accept it. It runs after the length and common-password rules.
 *
 * Passwords are not normalised (no NFKC): sign-in compares the bytes as typed, and so must this.
 *
 * @example
 * passwordPolicy: { minLength: 15, check: async (pw) => ((await isBreached(pw)) ? 'This password appeared in a data breach' : undefined) }
 */
export interface PasswordPolicyOptions {
  readonly minLength?: number;
  readonly maxBytes?: number;
  readonly refuseCommon?: boolean;
  readonly check?: (password: string) => Awaitable<string | undefined>;
}

/**
 * A policy with its defaults applied; `enforce` throws a 400 naming the rule that failed.
 *
 * @example
 * const policy = resolvePasswordPolicy({ minLength: 15 });
 * await policy.enforce(password); // BadRequestException when too short
 */
export interface PasswordPolicy {
  readonly minLength: number;
  readonly maxBytes: number;
  readonly refuseCommon: boolean;
  enforce(password: unknown): Promise<void>;
}

const encoder = new TextEncoder();

function refuse(message: string, rule: Record<string, unknown>): BadRequestException {
  return new BadRequestException(message, { field: 'password', ...rule });
}

/**
 * Applies the defaults to {@link PasswordPolicyOptions} and checks them: throws
 * `AuthConfigError` for a minimum under 8 or a maximum outside 64..1024 bytes.
 *
 * @example
 * resolvePasswordPolicy().minLength; // 12
 */
export function resolvePasswordPolicy(options: PasswordPolicyOptions = {}): PasswordPolicy {
  const minLength = options.minLength ?? DEFAULT_PASSWORD_MIN_LENGTH;
  const maxBytes = options.maxBytes ?? DEFAULT_PASSWORD_MAX_BYTES;
  if (!Number.isInteger(minLength) || minLength < 8 || minLength > 64) throw new AuthConfigError('accounts.passwordPolicy.minLength must be an integer from 8 to 64');
  if (!Number.isInteger(maxBytes) || maxBytes < 64 || maxBytes > DEFAULT_PASSWORD_MAX_BYTES) throw new AuthConfigError(`accounts.passwordPolicy.maxBytes must be an integer from 64 to ${DEFAULT_PASSWORD_MAX_BYTES}`);
  const check = options.check;
  const refuseCommon = options.refuseCommon ?? true;
  if (typeof refuseCommon !== 'boolean') throw new AuthConfigError('accounts.passwordPolicy.refuseCommon must be a boolean');
  // Started now, awaited by the first enforce: the first sign-up does not pay the list's load.
  // A failure is reported there (the policy then refuses every password: fail closed).
  if (refuseCommon) loadCommonPasswords().catch(() => undefined);
  return Object.freeze({
    minLength,
    maxBytes,
    refuseCommon,
    enforce: async (password: unknown) => {
      if (typeof password !== 'string') throw refuse('The password must be a string', {});
      // Bytes first: a huge string is refused before it is walked code point by code point.
      if (password.length > maxBytes || encoder.encode(password).length > maxBytes) throw refuse(`The password must be at most ${maxBytes} bytes`, { maxBytes });
      let length = 0;
      for (const _ of password) length++;
      if (length < minLength) throw refuse(`The password must be at least ${minLength} characters`, { minLength });
      if (refuseCommon && (await isCommonPassword(password))) throw refuse('The password is too common: it is on a list of the most used passwords', { commonPassword: true });
      const reason = check === undefined ? undefined : await check(password);
      if (reason !== undefined) throw refuse(reason, {});
    },
  });
}
