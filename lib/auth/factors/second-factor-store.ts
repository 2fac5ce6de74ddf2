/**
 * A person's TOTP enrolment: the secret sealed (see `SecretBox`), whether it was confirmed with
 * a first code, and the last time step accepted (a code is never accepted twice).
 *
 * @example
 * const enrolment: TotpEnrolment = { sealedSecret: 'v1.1a2b3c4d.…', confirmedAt: new Date(), lastStep: 59_833_333 };
 */
export interface TotpEnrolment {
  readonly sealedSecret: string;
  readonly confirmedAt: Date | null;
  readonly lastStep: number | null;
}

/**
 * A registered passkey (WebAuthn credential): its public key, never a secret.
 *
 * @example
 * const passkey: StoredPasskey = { id: 'AbC…', subject: 'user_1', publicKey: 'pQEC…', counter: 0, transports: ['internal'], createdAt: new Date(), lastUsedAt: null };
 */
export interface StoredPasskey {
  /** The credential id, base64url. */
  readonly id: string;
  readonly subject: string;
  /** The COSE public key, base64url. */
  readonly publicKey: string;
  /** The authenticator's signature counter at the last use (0 for authenticators that keep none). */
  readonly counter: number;
  readonly transports: readonly string[];
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
}

/** What a WebAuthn challenge was issued for. @example const purpose: PasskeyChallengePurpose = 'sign-in'; */
export type PasskeyChallengePurpose = 'registration' | 'sign-in' | 'step-up';

/**
 * A WebAuthn challenge kept server-side until its one use.
 *
 * @example
 * const challenge: StoredChallenge = { purpose: 'registration', subject: 'user_1', expiresAt: new Date(Date.now() + 300_000) };
 */
export interface StoredChallenge {
  readonly purpose: PasskeyChallengePurpose;
  /** The person it was issued to; null for a passkey-only sign-in (nobody is known yet). */
  readonly subject: string | null;
  readonly expiresAt: Date;
}

/**
 * A sign-in whose password (or outside provider) passed and whose second factor is awaited.
 *
 * @example
 * const pending: PendingSignIn = { subject: 'user_1', expiresAt: new Date(Date.now() + 300_000) };
 */
export interface PendingSignIn {
  readonly subject: string;
  readonly expiresAt: Date;
}

/**
 * Where second factors live. Every "use" operation is one atomic compare-and-set, so two
 * instances racing on the same code, counter, challenge or pending sign-in never both win.
 * Secrets arrive sealed and codes as keyed digests; the store never sees a usable secret.
 * Throwing means the state cannot be told: the caller fails closed (503).
 *
 * @example
 * secondFactors: { store: InMemorySecondFactorStore, encryptionKeys: [key] }
 */
export interface SecondFactorStore {
  findTotp(subject: string): Promise<TotpEnrolment | undefined>;
  /** Stores an unconfirmed enrolment, replacing an unconfirmed one; false (nothing changed) when a confirmed one exists. */
  saveTotpEnrolment(subject: string, sealedSecret: string): Promise<boolean>;
  /** Confirms an unconfirmed enrolment with its first step; false when there is none. */
  confirmTotp(subject: string, step: number, at: Date): Promise<boolean>;
  /** Records `step` as used when it is above the last used one; false (a replay or a race lost) otherwise. */
  useTotpStep(subject: string, step: number): Promise<boolean>;
  removeTotp(subject: string): Promise<void>;

  /** Replaces every recovery code of the subject with these digests. */
  replaceRecoveryCodes(subject: string, digests: readonly string[]): Promise<void>;
  /** Spends an unused code; true for exactly one caller however many race. */
  useRecoveryCode(subject: string, digest: string, at: Date): Promise<boolean>;
  /** How many unused codes remain. */
  countRecoveryCodes(subject: string): Promise<number>;

  addPasskey(passkey: StoredPasskey): Promise<void>;
  findPasskey(id: string): Promise<StoredPasskey | undefined>;
  listPasskeys(subject: string): Promise<readonly StoredPasskey[]>;
  /** Moves the counter from `previous` to `next` (and sets lastUsedAt); false when it is no longer `previous`. */
  usePasskeyCounter(id: string, previous: number, next: number, at: Date): Promise<boolean>;
  /** Removes the subject's passkey; false for an unknown id or another subject's. */
  removePasskey(subject: string, id: string): Promise<boolean>;

  /** Keeps a challenge under its SHA-256 (base64url). */
  putChallenge(challengeHash: string, challenge: StoredChallenge): Promise<void>;
  /** Removes and answers the challenge: its one use. */
  takeChallenge(challengeHash: string): Promise<StoredChallenge | undefined>;

  /** Keeps a pending sign-in under its token's SHA-256 (base64url). */
  putPendingSignIn(tokenHash: string, pending: PendingSignIn): Promise<void>;
  /** Removes and answers the pending sign-in: its one use. */
  takePendingSignIn(tokenHash: string): Promise<PendingSignIn | undefined>;

  /** Records that the session (its id, the access tokens' `sid`) passed a second factor at `at`. */
  markSessionVerified(sessionId: string, subject: string, at: Date): Promise<void>;
  /** When the session last passed a second factor, or undefined. */
  sessionVerifiedAt(sessionId: string): Promise<Date | undefined>;
}
