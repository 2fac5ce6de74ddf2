import type { PendingSignIn, SecondFactorStore, StoredChallenge, StoredPasskey, TotpEnrolment } from './second-factor-store.js';

interface RecoveryCode {
  readonly digest: string;
  usedAt: Date | null;
}

/**
 * A {@link SecondFactorStore} in this process's memory: for tests and single-instance demos
 * (lost on restart, not shared between instances). Every operation is synchronous inside, so
 * each compare-and-set is atomic. Expired challenges and pending sign-ins are refused by the
 * service and dropped here when taken.
 *
 * @example
 * secondFactors: { store: InMemorySecondFactorStore, encryptionKeys: [key] }
 */
export class InMemorySecondFactorStore implements SecondFactorStore {
  readonly #totp = new Map<string, TotpEnrolment>();
  readonly #codes = new Map<string, RecoveryCode[]>();
  readonly #passkeys = new Map<string, StoredPasskey>();
  readonly #challenges = new Map<string, StoredChallenge>();
  readonly #pending = new Map<string, PendingSignIn>();
  readonly #sessions = new Map<string, Date>();

  async findTotp(subject: string): Promise<TotpEnrolment | undefined> {
    return this.#totp.get(subject);
  }

  async saveTotpEnrolment(subject: string, sealedSecret: string): Promise<boolean> {
    if (this.#totp.get(subject)?.confirmedAt != null) return false;
    this.#totp.set(subject, { sealedSecret, confirmedAt: null, lastStep: null });
    return true;
  }

  async confirmTotp(subject: string, step: number, at: Date): Promise<boolean> {
    const current = this.#totp.get(subject);
    if (current === undefined || current.confirmedAt != null) return false;
    this.#totp.set(subject, { ...current, confirmedAt: new Date(at.getTime()), lastStep: step });
    return true;
  }

  async useTotpStep(subject: string, step: number): Promise<boolean> {
    const current = this.#totp.get(subject);
    if (current === undefined || current.confirmedAt == null) return false;
    if (current.lastStep !== null && step <= current.lastStep) return false;
    this.#totp.set(subject, { ...current, lastStep: step });
    return true;
  }

  async removeTotp(subject: string): Promise<void> {
    this.#totp.delete(subject);
  }

  async replaceRecoveryCodes(subject: string, digests: readonly string[]): Promise<void> {
    this.#codes.set(subject, digests.map((digest) => ({ digest, usedAt: null })));
  }

  async useRecoveryCode(subject: string, digest: string, at: Date): Promise<boolean> {
    const code = this.#codes.get(subject)?.find((candidate) => candidate.digest === digest && candidate.usedAt === null);
    if (code === undefined) return false;
    code.usedAt = new Date(at.getTime());
    return true;
  }

  async countRecoveryCodes(subject: string): Promise<number> {
    return (this.#codes.get(subject) ?? []).filter((code) => code.usedAt === null).length;
  }

  async addPasskey(passkey: StoredPasskey): Promise<void> {
    if (this.#passkeys.has(passkey.id)) throw new Error('InMemorySecondFactorStore: this passkey is already registered');
    this.#passkeys.set(passkey.id, { ...passkey, transports: [...passkey.transports] });
  }

  async findPasskey(id: string): Promise<StoredPasskey | undefined> {
    return this.#passkeys.get(id);
  }

  async listPasskeys(subject: string): Promise<readonly StoredPasskey[]> {
    return [...this.#passkeys.values()].filter((passkey) => passkey.subject === subject);
  }

  async usePasskeyCounter(id: string, previous: number, next: number, at: Date): Promise<boolean> {
    const current = this.#passkeys.get(id);
    if (current === undefined || current.counter !== previous) return false;
    this.#passkeys.set(id, { ...current, counter: next, lastUsedAt: new Date(at.getTime()) });
    return true;
  }

  async removePasskey(subject: string, id: string): Promise<boolean> {
    if (this.#passkeys.get(id)?.subject !== subject) return false;
    return this.#passkeys.delete(id);
  }

  async putChallenge(challengeHash: string, challenge: StoredChallenge): Promise<void> {
    this.#challenges.set(challengeHash, challenge);
  }

  async takeChallenge(challengeHash: string): Promise<StoredChallenge | undefined> {
    const challenge = this.#challenges.get(challengeHash);
    this.#challenges.delete(challengeHash);
    return challenge;
  }

  async putPendingSignIn(tokenHash: string, pending: PendingSignIn): Promise<void> {
    this.#pending.set(tokenHash, pending);
  }

  async takePendingSignIn(tokenHash: string): Promise<PendingSignIn | undefined> {
    const pending = this.#pending.get(tokenHash);
    this.#pending.delete(tokenHash);
    return pending;
  }

  async markSessionVerified(sessionId: string, _subject: string, at: Date): Promise<void> {
    this.#sessions.set(sessionId, new Date(at.getTime()));
  }

  async sessionVerifiedAt(sessionId: string): Promise<Date | undefined> {
    return this.#sessions.get(sessionId);
  }
}
