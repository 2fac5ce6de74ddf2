import { TesseraError } from '../../../index.js';
/**
 * Which part of a stored password hash was refused. Safe to log: it names a rule, never a value.
 *
 * @example
 * const reason: PasswordHashFormatReason = 'parameters';
 */
export type PasswordHashFormatReason =
  | 'not-a-string'
  | 'too-long'
  | 'structure'
  | 'algorithm'
  | 'version'
  | 'parameters'
  | 'salt'
  | 'hash';

/**
 * A stored password hash is malformed or uses something this module does not support (another
 * algorithm, another Argon2 version, absurd cost parameters). This is a data or configuration
 * problem, not a failed sign-in, so verification throws it instead of answering `false`.
 * The message names only the rule that failed; it never contains the hash or the password.
 *
 * @example
 * try { await verifyPassword(password, stored); }
 * catch (err) { if (err instanceof PasswordHashFormatError) logger.error(err.reason); }
 */
export class PasswordHashFormatError extends TesseraError {
  readonly reason: PasswordHashFormatReason;

  constructor(reason: PasswordHashFormatReason) {
    super('PASSWORD_HASH_FORMAT', `Password hash is malformed or unsupported (${reason})`);
    this.reason = reason;
  }
}

/**
 * A requested password-hashing backend cannot run here (for example the native addon is not
 * installed, or `worker_threads` does not exist outside Node).
 *
 * @example
 * try { await createPasswordHasher({ backend: 'native' }); }
 * catch (err) { if (err instanceof PasswordHasherUnavailableError) useWasmInstead(); }
 */
export class PasswordHasherUnavailableError extends TesseraError {
  readonly backend: string;

  constructor(backend: string, options?: { cause?: unknown }) {
    super('PASSWORD_HASHER_UNAVAILABLE', `Password hasher backend "${backend}" is not available in this runtime`, options);
    this.backend = backend;
  }
}
