import { ConflictException, UnauthorizedException, type Clock, type RequestContext } from '../../index.js';
import { decodeBase64, encodeBase64 } from '../../internal/primitives.js';
import { readBearerToken } from '../credentials/jwt/bearer-token.js';
import { generateOpaqueToken, hashOpaqueToken, isWellFormedOpaqueToken } from '../sessions/issuing/opaque-token.js';
import type { GatedSessionIssuing, SecondFactorGate, SecondFactorKind, SecondFactorStep } from '../sessions/issuing/second-factor-gate.js';
import type { SignInContext } from '../sessions/issuing/sign-in-context.js';
import type { TokenPair } from '../sessions/issuing/token-pair.js';
import { sessionIdOfAccessToken } from '../sessions/browser/browser-credentials.js';
import type { SignInThrottle } from '../throttle/sign-in-throttle.js';
import { credentialIdOf, loadSimpleWebAuthn, type PasskeyOptions, type PasskeyOptionsJson } from './passkey-ceremonies.js';
import { generateRecoveryCodes, normalizeRecoveryCode, recoveryCodeDigest } from './recovery-codes.js';
import type { SecretBox } from './secret-box.js';
import type { PasskeyChallengePurpose, SecondFactorStore, StoredPasskey } from './second-factor-store.js';
import { generateTotpSecret, matchTotp, totpSecretBase32, totpUri } from './totp.js';

/**
 * The one message of every refused second factor: a wrong, used or unknown code or passkey, and an unknown or expired pending sign-in read alike.
 *
 * @example
 * problem.detail === INVALID_SECOND_FACTOR_MESSAGE; // 'Invalid second factor'
 */
export const INVALID_SECOND_FACTOR_MESSAGE = 'Invalid second factor';

/**
 * A proof of a second factor: a TOTP code, a recovery code, or a passkey's authentication
 * response (the JSON `navigator.credentials.get` gave, as @simplewebauthn/browser sends it).
 *
 * @example
 * const proof: SecondFactorProof = { totp: '287082' };
 */
export type SecondFactorProof = { readonly totp: string } | { readonly recoveryCode: string } | { readonly passkey: unknown };

/**
 * What a person has enabled (never a secret).
 *
 * @example
 * await factors.status('user_1'); // { totp: true, passkeys: 1, recoveryCodes: 9, required: true }
 */
export interface SecondFactorStatus {
  readonly totp: boolean;
  readonly passkeys: number;
  readonly recoveryCodes: number;
  /** Whether sign-in asks for a second factor (a confirmed TOTP or a passkey). */
  readonly required: boolean;
}

/**
 * A TOTP enrolment to show once: the `otpauth://` URI (for a QR code) and the base32 secret (to type).
 *
 * @example
 * const { uri, secret } = await factors.enrolTotp('user_1', 'alice@acme.test');
 */
export interface TotpEnrolmentAnswer {
  readonly uri: string;
  readonly secret: string;
}

/**
 * Construction settings of {@link SecondFactorService} (the auth module builds it from `secondFactors`).
 *
 * @example
 * new SecondFactorService({ store: new InMemorySecondFactorStore(), box: await SecretBox.fromKeys([key]), clock: systemClock, totpIssuer: 'Acme', throttle: null });
 */
export interface SecondFactorSettings {
  readonly store: SecondFactorStore;
  readonly box: SecretBox;
  readonly clock: Clock;
  /** The issuer name authenticator apps show beside the account. */
  readonly totpIssuer: string;
  /** Seconds a pending sign-in waits for its factor; default 300. */
  readonly pendingSignInSeconds?: number | undefined;
  /** Failed factors are counted as failed sign-ins on these counters (key `second-factor` + subject); null: not throttled. */
  readonly throttle: SignInThrottle | null;
  /** Omitted: no passkeys. */
  readonly passkeys?: PasskeyOptions | undefined;
  /** The access token of a cookie-authenticated request (browser sessions), for {@link SecondFactorService.sessionIdOf}. */
  readonly cookieToken?: ((ctx: Pick<RequestContext, 'header'>) => string | undefined) | undefined;
}

const TOTP_PURPOSE = 'totp';

/**
 * Second factors: TOTP (RFC 6238), recovery codes and passkeys (WebAuthn), the gate every sign-in
 * path passes (`SecondFactorGate`), and step-up. Resolved through the auth module's
 * `SECOND_FACTORS` token when `secondFactors` is configured.
 *
 * - A sign-in (password or outside provider) of a person with a confirmed TOTP or a passkey ends
 *   in a pending sign-in: a single-use token, valid `pendingSignInSeconds`, that
 *   {@link completeSignIn} exchanges for the session together with a factor. Whatever the
 *   outcome, the token is spent: a wrong code means signing in again.
 * - Enabling the first factor ends the person's other sessions (they started without it and could
 *   otherwise refresh for ever); the session that enabled it is kept and counts as verified.
 * - Every refusal is the same 401 `Invalid second factor`, counted as a failed sign-in by the
 *   sign-in throttle (429 once over), keyed on the person rather than on what was typed.
 *
 * @example
 * const { uri } = await factors.enrolTotp(user.sub, user.email);
 * const { recoveryCodes } = await factors.confirmTotp(user.sub, '287082', sid);
 * const pair = await factors.completeSignIn(pendingToken, { totp: '491735' }, context);
 */
export class SecondFactorService implements SecondFactorGate {
  readonly #store: SecondFactorStore;
  readonly #box: SecretBox;
  readonly #clock: Clock;
  readonly #issuer: string;
  readonly #pendingMs: number;
  readonly #throttle: SignInThrottle | null;
  readonly #passkeys: PasskeyOptions | undefined;
  readonly #cookieToken: ((ctx: Pick<RequestContext, 'header'>) => string | undefined) | undefined;
  #issuing: GatedSessionIssuing | undefined;
  #macKey: Promise<CryptoKey> | undefined;

  constructor(settings: SecondFactorSettings) {
    this.#store = settings.store;
    this.#box = settings.box;
    this.#clock = settings.clock;
    this.#issuer = settings.totpIssuer;
    this.#pendingMs = (settings.pendingSignInSeconds ?? 300) * 1000;
    this.#throttle = settings.throttle;
    this.#passkeys = settings.passkeys;
    this.#cookieToken = settings.cookieToken;
  }

  /**
   * The session id (`sid`) of the request's own access token, from `Authorization` or the browser
   * session's cookie; undefined for an API key or another issuer's token. Call it behind the
   * guard that verified the token.
   *
   * @example
   * await factors.stepUp(user.sub, factors.sessionIdOf(ctx)!, { totp: code });
   */
  sessionIdOf(ctx: Pick<RequestContext, 'header'>): string | undefined {
    const token = readBearerToken(ctx.header('authorization')) ?? this.#cookieToken?.(ctx);
    return token === undefined ? undefined : sessionIdOfAccessToken(token);
  }

  /** SecondFactorGate: called once by the issuing service's constructor. */
  attach(issuing: GatedSessionIssuing): void {
    if (this.#issuing !== undefined) throw new Error('SecondFactorService: already attached to an issuing service');
    this.#issuing = issuing;
  }

  /** SecondFactorGate: a confirmed TOTP or a passkey makes the second factor required. */
  async required(subject: string): Promise<boolean> {
    const totp = await this.#store.findTotp(subject);
    if (totp?.confirmedAt != null) return true;
    return (await this.#store.listPasskeys(subject)).length > 0;
  }

  /** SecondFactorGate: a new pending sign-in for the subject. */
  async begin(subject: string): Promise<SecondFactorStep> {
    const pendingToken = generateOpaqueToken();
    const expiresAt = new Date(this.#clock.now() + this.#pendingMs);
    await this.#store.putPendingSignIn(hashOpaqueToken(pendingToken), { subject, expiresAt });
    return { pendingToken, expiresAt, factors: await this.#factorsOf(subject) };
  }

  /**
   * What the person has enabled.
   *
   * @example
   * const { required, recoveryCodes } = await factors.status(user.sub);
   */
  async status(subject: string): Promise<SecondFactorStatus> {
    const [totp, passkeys, recoveryCodes] = await Promise.all([this.#store.findTotp(subject), this.#store.listPasskeys(subject), this.#store.countRecoveryCodes(subject)]);
    const confirmed = totp?.confirmedAt != null;
    return { totp: confirmed, passkeys: passkeys.length, recoveryCodes, required: confirmed || passkeys.length > 0 };
  }

  /**
   * Starts a TOTP enrolment: a new 20-byte secret, sealed in the store (unconfirmed, replacing an
   * earlier unconfirmed one), answered once as an `otpauth://` URI and base32 text.
   *
   * @throws ConflictException 409 when a confirmed TOTP exists (remove it first).
   * @example
   * const { uri, secret } = await factors.enrolTotp(user.sub, 'alice@acme.test');
   */
  async enrolTotp(subject: string, accountName: string): Promise<TotpEnrolmentAnswer> {
    const secret = generateTotpSecret();
    const sealed = await this.#box.seal(secret, TOTP_PURPOSE, subject);
    if (!(await this.#store.saveTotpEnrolment(subject, sealed))) throw new TotpAlreadyEnabledException();
    return { uri: totpUri(secret, { issuer: this.#issuer, account: accountName }), secret: totpSecretBase32(secret) };
  }

  /**
   * Confirms the enrolment with a first code (proving the app holds the secret). When it is the
   * person's first factor: recovery codes are generated (answered once) and every other session
   * ends; the calling session (`sessionId`, its `sid`) is kept and marked verified.
   *
   * @throws UnauthorizedException `Invalid second factor` for a wrong code or no enrolment.
   * @example
   * const { recoveryCodes } = await factors.confirmTotp(user.sub, '287082', sid);
   */
  async confirmTotp(subject: string, code: string, sessionId: string | undefined, context?: SignInContext): Promise<{ readonly recoveryCodes: readonly string[] | undefined }> {
    return this.#throttled(subject, context, async () => {
      const enrolment = await this.#store.findTotp(subject);
      if (enrolment === undefined || enrolment.confirmedAt != null) throw invalidSecondFactor();
      const secret = await this.#box.open(enrolment.sealedSecret, TOTP_PURPOSE, subject);
      const step = matchTotp(secret, code, this.#clock.now());
      if (step === undefined) throw invalidSecondFactor();
      const wasRequired = await this.required(subject);
      if (!(await this.#store.confirmTotp(subject, step, new Date(this.#clock.now())))) throw invalidSecondFactor();
      return { recoveryCodes: await this.#firstFactorAdded(subject, sessionId, wasRequired) };
    });
  }

  /**
   * Removes the person's TOTP (put a step-up guard on the route that calls it).
   *
   * @example
   * await factors.removeTotp(user.sub);
   */
  async removeTotp(subject: string): Promise<void> {
    await this.#store.removeTotp(subject);
  }

  /**
   * The person's passkeys (public data only: id, transports, when created and last used).
   *
   * @example
   * const passkeys = await factors.listPasskeys(user.sub);
   */
  async listPasskeys(subject: string): Promise<readonly { readonly id: string; readonly transports: readonly string[]; readonly createdAt: Date; readonly lastUsedAt: Date | null }[]> {
    return (await this.#store.listPasskeys(subject)).map(({ id, transports, createdAt, lastUsedAt }) => ({ id, transports, createdAt, lastUsedAt }));
  }

  /**
   * Removes one of the person's passkeys (a lost or stolen device); false for an unknown id or
   * another person's, alike. Put a step-up guard on the route that calls it.
   *
   * @example
   * if (!(await factors.removePasskey(user.sub, params.id))) throw new NotFoundException('No such passkey');
   */
  removePasskey(subject: string, id: string): Promise<boolean> {
    return this.#store.removePasskey(subject, id);
  }

  /**
   * Replaces every recovery code with ten new ones, answered once; only their keyed digests are
   * stored. Put a step-up guard on the route that calls it.
   *
   * @example
   * const codes = await factors.regenerateRecoveryCodes(user.sub); // ['7k2m9q-xd4t1v-...', ...]
   */
  async regenerateRecoveryCodes(subject: string): Promise<readonly string[]> {
    const codes = generateRecoveryCodes();
    const key = await this.#recoveryKey();
    const digests = await Promise.all(codes.map((code) => recoveryCodeDigest(key, subject, normalizeRecoveryCode(code) as string)));
    await this.#store.replaceRecoveryCodes(subject, digests);
    return codes;
  }

  /**
   * Finishes a two-step sign-in: spends the pending token (whatever the outcome), checks the
   * factor against the person it names, and starts the session (marked verified for step-up).
   *
   * @throws UnauthorizedException `Invalid second factor` for an unknown, used or expired pending
   * token or a wrong factor; TooManyRequestsException (429) when the sign-in throttle refuses.
   * @example
   * const pair = await factors.completeSignIn(body.pendingToken, { totp: body.code }, context);
   */
  async completeSignIn(pendingToken: string, proof: SecondFactorProof, context?: SignInContext): Promise<TokenPair> {
    const issuing = this.#issuingOrFail();
    if (!isWellFormedOpaqueToken(pendingToken)) throw invalidSecondFactor();
    const pending = await this.#store.takePendingSignIn(hashOpaqueToken(pendingToken));
    if (pending === undefined || !(pending.expiresAt.getTime() > this.#clock.now())) throw invalidSecondFactor();
    const subject = pending.subject;
    return this.#throttled(subject, context, async () => {
      await this.#verify(subject, proof, 'sign-in');
      const pair = await issuing.startSession(subject, context);
      await this.#markVerified(pair, subject);
      return pair;
    });
  }

  /**
   * Step-up: checks a factor of the signed-in person and records it on the session, so routes
   * behind `StepUpGuard` accept the session for their freshness window.
   *
   * @throws UnauthorizedException `Invalid second factor` (counted by the sign-in throttle).
   * @example
   * await factors.stepUp(user.sub, sid, { totp: body.code }, context);
   */
  async stepUp(subject: string, sessionId: string, proof: SecondFactorProof, context?: SignInContext): Promise<void> {
    await this.#throttled(subject, context, async () => {
      await this.#verify(subject, proof, 'step-up');
      await this.#store.markSessionVerified(sessionId, subject, new Date(this.#clock.now()));
    });
  }

  /**
   * When the session last passed a second factor (sign-in's second step or a step-up), or undefined.
   *
   * @example
   * const at = await factors.sessionVerifiedAt(sid);
   */
  sessionVerifiedAt(sessionId: string): Promise<Date | undefined> {
    return this.#store.sessionVerifiedAt(sessionId);
  }

  /**
   * WebAuthn registration options for the signed-in person (resident key required: the passkey
   * can then sign in alone; user verification required). The challenge is kept server-side for
   * one use.
   *
   * @throws Error when passkeys are not configured.
   * @example
   * const options = await factors.passkeyRegistrationOptions(user.sub, 'alice@acme.test');
   */
  async passkeyRegistrationOptions(subject: string, userName: string): Promise<PasskeyOptionsJson> {
    const config = this.#passkeyConfig();
    const webauthn = await loadSimpleWebAuthn();
    const existing = await this.#store.listPasskeys(subject);
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

  /**
   * Verifies a registration response against its one-use challenge and stores the passkey. When
   * it is the person's first factor: recovery codes are answered once and the other sessions end.
   *
   * @throws UnauthorizedException `Invalid second factor` for a response that does not verify.
   * @example
   * const { id, recoveryCodes } = await factors.registerPasskey(user.sub, body, sid);
   */
  async registerPasskey(subject: string, response: unknown, sessionId: string | undefined): Promise<{ readonly id: string; readonly recoveryCodes: readonly string[] | undefined }> {
    const config = this.#passkeyConfig();
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
    const wasRequired = await this.required(subject);
    const now = new Date(this.#clock.now());
    await this.#store.addPasskey({ id: credential.id, subject, publicKey: encodeBase64(credential.publicKey), counter: credential.counter, transports: credential.transports ?? [], createdAt: now, lastUsedAt: null });
    return { id: credential.id, recoveryCodes: await this.#firstFactorAdded(subject, sessionId, wasRequired) };
  }

  /**
   * WebAuthn authentication options for a passkey-only sign-in, a second step or a step-up: no
   * `allowCredentials` (the authenticator offers its discoverable passkeys), user verification
   * required, the challenge kept server-side for one use. `subject` binds a step-up's challenge
   * to the signed-in person.
   *
   * @example
   * const options = await factors.passkeyAuthenticationOptions();
   */
  async passkeyAuthenticationOptions(subject?: string): Promise<PasskeyOptionsJson> {
    const config = this.#passkeyConfig();
    const webauthn = await loadSimpleWebAuthn();
    const options = await webauthn.generateAuthenticationOptions({ rpID: config.rpId, userVerification: 'required' });
    await this.#keepChallenge(options.challenge, subject === undefined ? 'sign-in' : 'step-up', subject ?? null);
    return options;
  }

  /**
   * Signs in with a passkey alone (a discoverable credential with user verification: possession
   * and a PIN or biometric, two factors in one), starting a session marked verified.
   *
   * @throws UnauthorizedException `Invalid second factor` for an unknown passkey or a response
   * that does not verify (a used challenge, another origin, a counter that went back).
   * @example
   * const pair = await factors.signInWithPasskey(body, context);
   */
  async signInWithPasskey(response: unknown, context?: SignInContext): Promise<TokenPair> {
    const issuing = this.#issuingOrFail();
    const passkey = await this.#checkPasskey(response, undefined, 'sign-in');
    const pair = await issuing.startSession(passkey.subject, context);
    await this.#markVerified(pair, passkey.subject);
    return pair;
  }

  /** The subject's factors a pending sign-in accepts. */
  async #factorsOf(subject: string): Promise<SecondFactorKind[]> {
    const status = await this.status(subject);
    const factors: SecondFactorKind[] = [];
    if (status.totp) factors.push('totp');
    if (status.passkeys > 0 && this.#passkeys !== undefined) factors.push('passkey');
    if (status.recoveryCodes > 0) factors.push('recovery-code');
    return factors;
  }

  /** Checks one proof for the subject; throws the one 401 otherwise. */
  async #verify(subject: string, proof: SecondFactorProof, purpose: 'sign-in' | 'step-up'): Promise<void> {
    if (typeof proof !== 'object' || proof === null) throw invalidSecondFactor();
    if ('totp' in proof) return this.#verifyTotp(subject, proof.totp);
    if ('recoveryCode' in proof) return this.#verifyRecoveryCode(subject, proof.recoveryCode);
    if ('passkey' in proof) {
      await this.#checkPasskey(proof.passkey, subject, purpose);
      return;
    }
    throw invalidSecondFactor();
  }

  async #verifyTotp(subject: string, code: unknown): Promise<void> {
    const enrolment = await this.#store.findTotp(subject);
    if (enrolment === undefined || enrolment.confirmedAt == null || typeof code !== 'string') throw invalidSecondFactor();
    const secret = await this.#box.open(enrolment.sealedSecret, TOTP_PURPOSE, subject);
    const step = matchTotp(secret, code, this.#clock.now());
    // The compare-and-set refuses a step at or below the last one used: a code, or an older code
    // of the window, is never accepted twice, even by two instances at once.
    if (step === undefined || !(await this.#store.useTotpStep(subject, step))) throw invalidSecondFactor();
  }

  async #verifyRecoveryCode(subject: string, code: unknown): Promise<void> {
    const normalized = typeof code === 'string' ? normalizeRecoveryCode(code) : undefined;
    if (normalized === undefined) throw invalidSecondFactor();
    const digest = await recoveryCodeDigest(await this.#recoveryKey(), subject, normalized);
    if (!(await this.#store.useRecoveryCode(subject, digest, new Date(this.#clock.now())))) throw invalidSecondFactor();
  }

  /**
   * Verifies an authentication response: a passkey we know (of `subject` when given), its
   * one-use challenge of this purpose, the origin and RP id, user verification, and a signature
   * counter that moved forward (or stays 0 for authenticators without one), the counter stored by
   * compare-and-set.
   */
  async #checkPasskey(response: unknown, subject: string | undefined, purpose: PasskeyChallengePurpose): Promise<StoredPasskey> {
    const config = this.#passkeyConfig();
    const id = credentialIdOf(response);
    const passkey = id === undefined ? undefined : await this.#store.findPasskey(id);
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
    if (!(await this.#store.usePasskeyCounter(passkey.id, passkey.counter, next, new Date(this.#clock.now())))) throw invalidSecondFactor();
    return passkey;
  }

  async #keepChallenge(challenge: string, purpose: PasskeyChallengePurpose, subject: string | null): Promise<void> {
    const seconds = this.#passkeys?.challengeSeconds ?? 300;
    await this.#store.putChallenge(hashOpaqueToken(challenge), { purpose, subject, expiresAt: new Date(this.#clock.now() + seconds * 1000) });
  }

  /** Spends the challenge (its one use) and answers whether it was ours, live, for this purpose and person. */
  async #takeChallenge(challenge: string, purpose: PasskeyChallengePurpose, subject: string | null): Promise<boolean> {
    if (typeof challenge !== 'string' || challenge.length === 0 || challenge.length > 1024) return false;
    const stored = await this.#store.takeChallenge(hashOpaqueToken(challenge));
    return stored !== undefined && stored.purpose === purpose && stored.subject === subject && stored.expiresAt.getTime() > this.#clock.now();
  }

  /** After a first factor: recovery codes (when there are none), the other sessions ended, this one verified. */
  async #firstFactorAdded(subject: string, sessionId: string | undefined, wasRequired: boolean): Promise<readonly string[] | undefined> {
    if (sessionId !== undefined) await this.#store.markSessionVerified(sessionId, subject, new Date(this.#clock.now()));
    if (wasRequired) return undefined;
    // Sessions that started without the factor would otherwise refresh for ever without it.
    if (sessionId !== undefined) await this.#issuingOrFail().revokeOtherSessions(subject, sessionId);
    else await this.#issuingOrFail().revokeOtherSessions(subject, '');
    return (await this.#store.countRecoveryCodes(subject)) > 0 ? undefined : this.regenerateRecoveryCodes(subject);
  }

  async #markVerified(pair: TokenPair, subject: string): Promise<void> {
    const sessionId = sessionIdOfAccessToken(pair.accessToken);
    if (sessionId !== undefined) await this.#store.markSessionVerified(sessionId, subject, new Date(this.#clock.now()));
  }

  /** Counts a refused factor as a failed sign-in of `second-factor` + subject (429 once over). */
  async #throttled<T>(subject: string, context: SignInContext | undefined, run: () => Promise<T>): Promise<T> {
    return this.#throttle === null ? run() : this.#throttle.attempt(`second-factor\n${subject}`, context, run);
  }

  #recoveryKey(): Promise<CryptoKey> {
    this.#macKey ??= this.#box.derivedMacKey('recovery codes');
    return this.#macKey;
  }

  #passkeyConfig(): PasskeyOptions {
    if (this.#passkeys === undefined) throw new Error('passkeys are not configured: set secondFactors.passkeys (rpId, rpName, origins)');
    return this.#passkeys;
  }

  #issuingOrFail(): GatedSessionIssuing {
    // Fail closed: without the issuing service nothing can start a session.
    if (this.#issuing === undefined) throw new Error('SecondFactorService: no issuing service attached (configure issuing with secondFactors)');
    return this.#issuing;
  }
}

/** A fresh 401 `Invalid second factor`, `code: INVALID_SECOND_FACTOR`. */
function invalidSecondFactor(): UnauthorizedException {
  return new UnauthorizedException(INVALID_SECOND_FACTOR_MESSAGE, { code: 'INVALID_SECOND_FACTOR' });
}

/** 409: a confirmed TOTP exists; remove it before enrolling another. */
class TotpAlreadyEnabledException extends ConflictException {
  constructor() {
    super('An authenticator app is already enabled: remove it before enrolling another', { code: 'TOTP_ALREADY_ENABLED' });
  }
}
