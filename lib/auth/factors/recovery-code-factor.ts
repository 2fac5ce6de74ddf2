import type { Clock } from '../../index.js';
import { invalidSecondFactor } from './invalid-second-factor.js';
import { generateRecoveryCodes, normalizeRecoveryCode, recoveryCodeDigest } from './recovery-codes.js';
import type { SecretBox } from './secret-box.js';
import type { SecondFactorStore } from './second-factor-store.js';

/**
 * Recovery codes as a second factor: ten at a time, answered once, stored as keyed digests
 * (HMAC under a key derived from the sealing keys), each spent by one statement of the store so
 * that two racing uses of one code have one winner. Part of `SecondFactorService`.
 *
 * @example
 * const codes = await recovery.regenerate('user_1');
 * await recovery.verify('user_1', codes[0]);
 */
export class RecoveryCodeFactor {
  #macKey: Promise<CryptoKey> | undefined;

  constructor(
    readonly store: SecondFactorStore,
    readonly box: SecretBox,
    readonly clock: Clock,
  ) {}

  /** Replaces every recovery code with ten new ones, answered once; only their digests are stored. */
  async regenerate(subject: string): Promise<readonly string[]> {
    const codes = generateRecoveryCodes();
    const key = await this.#key();
    const digests = await Promise.all(codes.map((code) => recoveryCodeDigest(key, subject, normalizeRecoveryCode(code) as string)));
    await this.store.replaceRecoveryCodes(subject, digests);
    return codes;
  }

  /** Spends one code of the subject; the one 401 for a wrong, used or malformed code. */
  async verify(subject: string, code: unknown): Promise<void> {
    const normalized = typeof code === 'string' ? normalizeRecoveryCode(code) : undefined;
    if (normalized === undefined) throw invalidSecondFactor();
    const digest = await recoveryCodeDigest(await this.#key(), subject, normalized);
    if (!(await this.store.useRecoveryCode(subject, digest, new Date(this.clock.now())))) throw invalidSecondFactor();
  }

  count(subject: string): Promise<number> {
    return this.store.countRecoveryCodes(subject);
  }

  #key(): Promise<CryptoKey> {
    this.#macKey ??= this.box.derivedMacKey('recovery codes');
    return this.#macKey;
  }
}
