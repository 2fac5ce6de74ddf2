import type { Clock } from '../../index.js';
import { decodeBase64, encodeBase64 } from '../../internal/primitives.js';
import { hashOpaqueToken } from '../sessions/issuing/opaque-token.js';
import { invalidSecondFactor } from './invalid-second-factor.js';
import { credentialIdOf, loadSimpleWebAuthn, type PasskeyOptions, type PasskeyOptionsJson } from './passkey-ceremonies.js';
import type { PasskeyChallengePurpose, SecondFactorStore, StoredPasskey } from './second-factor-store.js';

/**
 * Passkeys (WebAuthn through @simplewebauthn/server): registration and authentication ceremonies
 * with one-use challenges kept server-side, user verification required, signature counters that
 * only move forward (stored by compare-and-set). Every refusal is the one `Invalid second factor`.
 * Part of `SecondFactorService`.
 *
 * @example
 * const passkeys = new PasskeyFactor(store, clock, { rpId: 'acme.test', rpName: 'Acme', origins: ['https://acme.test'] });
 * const options = await passkeys.authenticationOptions();
 */
export class PasskeyFactor {
  constructor(
    readonly store: SecondFactorStore,
    readonly clock: Clock,
    readonly options: PasskeyOptions | undefined,
  ) {}

  /** Whether passkeys are configured. */
  get configured(): boolean {
    return this.options !== undefined;
  }

  /** Registration options for the signed-in person (resident key and user verification required). */
  async registrationOptions(subject: string, userName: string): Promise<PasskeyOptionsJson> {
    const config = this.#config();
    const webauthn = await loadSimpleWebAuthn();
    const existing = await this.store.listPasskeys(subject);
    const options = await webauthn.generateRegistrationOptions({
      rpName: config.rpName,
      rpID: config.rpId,
      userName,
      // The user handle is the subject: a discoverable passkey names its person at sign-in.
      userID: new TextEncoder().encode(subject),
      attestationType: 'none',
      excludeCredentials: existing.map((passkey) => ({ id: passkey.id, transports: [...passkey.transports] })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    await this.#keepChallenge(options.challenge, 'registration', subject);
    return options;
  }

  /** Verifies a registration response against its one-use challenge and stores the passkey; answers its id. */
  async register(subject: string, response: unknown): Promise<string> {
    const config = this.#config();
    const webauthn = await loadSimpleWebAuthn();
    let verification: Awaited<ReturnType<typeof webauthn.verifyRegistrationResponse>>;
    try {
      verification = await webauthn.verifyRegistrationResponse({
        response,
        expectedChallenge: (challenge: string) => this.#takeChallenge(challenge, 'registration', subject),
        expectedOrigin: [...config.origins],
        expectedRPID: config.rpId,
        requireUserVerification: true,
      });
    } catch {
      throw invalidSecondFactor();
    }
    const credential = verification.registrationInfo?.credential;
    if (!verification.verified || credential === undefined) throw invalidSecondFactor();
    await this.store.addPasskey({ id: credential.id, subject, publicKey: encodeBase64(credential.publicKey), counter: credential.counter, transports: credential.transports ?? [], createdAt: new Date(this.clock.now()), lastUsedAt: null });
    return credential.id;
  }

  /** Authentication options (discoverable passkeys, user verification required); `subject` binds a step-up's challenge to its person. */
  async authenticationOptions(subject?: string): Promise<PasskeyOptionsJson> {
    const config = this.#config();
    const webauthn = await loadSimpleWebAuthn();
    const options = await webauthn.generateAuthenticationOptions({ rpID: config.rpId, userVerification: 'required' });
    await this.#keepChallenge(options.challenge, subject === undefined ? 'sign-in' : 'step-up', subject ?? null);
    return options;
  }

  /**
   * Verifies an authentication response: a passkey we know (of `subject` when given), its
   * one-use challenge of this purpose, the origin and RP id, user verification, and a signature
   * counter that moved forward (or stays 0 for authenticators without one), the counter stored by
   * compare-and-set. Answers the passkey.
   */
  async check(response: unknown, subject: string | undefined, purpose: PasskeyChallengePurpose): Promise<StoredPasskey> {
    const config = this.#config();
    const id = credentialIdOf(response);
    const passkey = id === undefined ? undefined : await this.store.findPasskey(id);
    if (passkey === undefined || (subject !== undefined && passkey.subject !== subject)) throw invalidSecondFactor();
    const publicKey = decodeBase64(passkey.publicKey);
    if (publicKey === undefined) throw new Error('second factors: a stored passkey public key is not base64url');
    const webauthn = await loadSimpleWebAuthn();
    let verification: Awaited<ReturnType<typeof webauthn.verifyAuthenticationResponse>>;
    try {
      verification = await webauthn.verifyAuthenticationResponse({
        response,
        // A sign-in's challenge names nobody; a step-up's names the signed-in person. The second
        // step of a sign-in uses a sign-in challenge.
        expectedChallenge: (challenge: string) => this.#takeChallenge(challenge, purpose, purpose === 'step-up' ? passkey.subject : null),
        expectedOrigin: [...config.origins],
        expectedRPID: config.rpId,
        credential: { id: passkey.id, publicKey: Uint8Array.from(publicKey), counter: passkey.counter, transports: [...passkey.transports] },
        requireUserVerification: true,
      });
    } catch {
      // simplewebauthn throws for a counter that did not move forward, a wrong origin or challenge.
      throw invalidSecondFactor();
    }
    if (!verification.verified || !verification.authenticationInfo.userVerified) throw invalidSecondFactor();
    const next = verification.authenticationInfo.newCounter;
    // Counters only move forward; both 0 means an authenticator that keeps none (allowed).
    if (!(next > passkey.counter || (next === 0 && passkey.counter === 0))) throw invalidSecondFactor();
    if (!(await this.store.usePasskeyCounter(passkey.id, passkey.counter, next, new Date(this.clock.now())))) throw invalidSecondFactor();
    return passkey;
  }

  async #keepChallenge(challenge: string, purpose: PasskeyChallengePurpose, subject: string | null): Promise<void> {
    const seconds = this.options?.challengeSeconds ?? 300;
    await this.store.putChallenge(hashOpaqueToken(challenge), { purpose, subject, expiresAt: new Date(this.clock.now() + seconds * 1000) });
  }

  /** Spends the challenge (its one use) and answers whether it was ours, live, for this purpose and person. */
  async #takeChallenge(challenge: string, purpose: PasskeyChallengePurpose, subject: string | null): Promise<boolean> {
    if (typeof challenge !== 'string' || challenge.length === 0 || challenge.length > 1024) return false;
    const stored = await this.store.takeChallenge(hashOpaqueToken(challenge));
    return stored !== undefined && stored.purpose === purpose && stored.subject === subject && stored.expiresAt.getTime() > this.clock.now();
  }

  #config(): PasskeyOptions {
    if (this.options === undefined) throw new Error('passkeys are not configured: set secondFactors.passkeys (rpId, rpName, origins)');
    return this.options;
  }
}
