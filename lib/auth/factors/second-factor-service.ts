import type { Clock } from '../../index.js';
import { generateOpaqueToken, hashOpaqueToken, isWellFormedOpaqueToken } from '../sessions/issuing/opaque-token.js';
import type { GatedSessionIssuing, SecondFactorGate, SecondFactorKind, SecondFactorStep } from '../sessions/issuing/second-factor-gate.js';
import type { SignInContext } from '../sessions/issuing/sign-in-context.js';
import type { TokenPair } from '../sessions/issuing/token-pair.js';
import { sessionIdOfAccessToken } from '../sessions/browser/browser-credentials.js';
import { NO_SECURITY_EVENTS, type SecondFactorPurpose, type SecurityEventSink } from '../events/security-event.js';
import type { SignInThrottle } from '../throttle/sign-in-throttle.js';
import { invalidSecondFactor, isInvalidSecondFactor } from './invalid-second-factor.js';
import type { PasskeyOptionsJson } from './passkey-ceremonies.js';
import { PasskeyFactor } from './passkey-factor.js';
import { RecoveryCodeFactor } from './recovery-code-factor.js';
import type { SecondFactorStore } from './second-factor-store.js';
import type { SecondFactorSettings } from './second-factor-settings.js';
import type { SecondFactorProof } from './second-factor-proof.js';
import { TotpFactor, type TotpEnrolmentAnswer } from './totp-factor.js';
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
 * - Factor changes and refusals are security events (`second-factor.*`, `passkey.*`,
 *   `recovery-code*`), never with a code, secret or passkey response in them.
 *
 * Every `subject` is a local account: read it with `getAccountId(ctx)` (the app's own session,
 * and its `sid` from `getPrincipal(ctx)`), never from a token's `sub`, which an outside issuer
 * chooses (ASVS 6.8.1). The factors themselves are `TotpFactor`, `RecoveryCodeFactor` and
 * `PasskeyFactor` (one file each).
 *
 * @example
 * const { uri } = await factors.enrolTotp(user.sub, user.email);
 * const { recoveryCodes } = await factors.confirmTotp(getAccountId(ctx)!, "287082", sid);
 * const pair = await factors.completeSignIn(pendingToken, { totp: '491735' }, context);
 */
export class SecondFactorService implements SecondFactorGate {
  readonly #store: SecondFactorStore;
  readonly #clock: Clock;
  readonly #pendingMs: number;
  readonly #throttle: SignInThrottle | null;
  readonly #events: SecurityEventSink;
  readonly #totp: TotpFactor;
  readonly #recovery: RecoveryCodeFactor;
  readonly #passkeys: PasskeyFactor;
  #issuing: GatedSessionIssuing | undefined;

  constructor(settings: SecondFactorSettings) {
    this.#store = settings.store;
    this.#clock = settings.clock;
    this.#pendingMs = (settings.pendingSignInSeconds ?? 300) * 1000;
    this.#throttle = settings.throttle;
    this.#events = settings.securityEvents ?? NO_SECURITY_EVENTS;
    this.#totp = new TotpFactor(settings.store, settings.box, settings.clock, settings.totpIssuer);
    this.#recovery = new RecoveryCodeFactor(settings.store, settings.box, settings.clock);
    this.#passkeys = new PasskeyFactor(settings.store, settings.clock, settings.passkeys);
  }

  /** SecondFactorGate: called once by the issuing service's constructor. */
  attach(issuing: GatedSessionIssuing): void {
    if (this.#issuing !== undefined) throw new Error('SecondFactorService: already attached to an issuing service');
    this.#issuing = issuing;
  }

  /** SecondFactorGate: a confirmed TOTP or a passkey makes the second factor required. */
  async required(subject: string): Promise<boolean> {
    if (await this.#totp.enabled(subject)) return true;
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
    const [totp, passkeys, recoveryCodes] = await Promise.all([this.#totp.enabled(subject), this.#store.listPasskeys(subject), this.#recovery.count(subject)]);
    return { totp, passkeys: passkeys.length, recoveryCodes, required: totp || passkeys.length > 0 };
  }

  /**
   * Starts a TOTP enrolment: a new 20-byte secret, sealed in the store (unconfirmed, replacing an
   * earlier unconfirmed one), answered once as an `otpauth://` URI and base32 text.
   *
   * @throws ConflictException 409 when a confirmed TOTP exists (remove it first).
   * @example
   * const { uri, secret } = await factors.enrolTotp(user.sub, 'alice@acme.test');
   */
  enrolTotp(subject: string, accountName: string): Promise<TotpEnrolmentAnswer> {
    return this.#totp.enrol(subject, accountName);
  }

  /**
   * Confirms the enrolment with a first code (proving the app holds the secret). When it is the
   * person's first factor: recovery codes are generated (answered once) and every other session
   * ends; the calling session (`sessionId`, its `sid`) is kept and marked verified.
   *
   * @throws UnauthorizedException `Invalid second factor` for a wrong code or no enrolment.
   * @example
   * const { recoveryCodes } = await factors.confirmTotp(getAccountId(ctx)!, "287082", sid);
   */
  async confirmTotp(subject: string, code: string, sessionId: string | undefined, context?: SignInContext): Promise<{ readonly recoveryCodes: readonly string[] | undefined }> {
    return this.#throttled(subject, 'enrolment', context, async () => {
      const wasRequired = await this.required(subject);
      await this.#totp.confirm(subject, code);
      this.#events.record({ type: 'second-factor.enabled', subject, factor: 'totp' });
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
    const enabled = await this.#totp.enabled(subject);
    await this.#totp.remove(subject);
    if (enabled) this.#events.record({ type: 'second-factor.removed', subject, factor: 'totp' });
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
  async removePasskey(subject: string, id: string): Promise<boolean> {
    const removed = await this.#store.removePasskey(subject, id);
    if (removed) this.#events.record({ type: 'passkey.removed', subject, passkeyId: id });
    return removed;
  }

  /**
   * Replaces every recovery code with ten new ones, answered once; only their keyed digests are
   * stored. Put a step-up guard on the route that calls it.
   *
   * @example
   * const codes = await factors.regenerateRecoveryCodes(user.sub); // ['7k2m9q-xd4t1v-...', ...]
   */
  async regenerateRecoveryCodes(subject: string): Promise<readonly string[]> {
    const codes = await this.#recovery.regenerate(subject);
    this.#events.record({ type: 'recovery-codes.regenerated', subject });
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
    const pending = isWellFormedOpaqueToken(pendingToken) ? await this.#store.takePendingSignIn(hashOpaqueToken(pendingToken)) : undefined;
    if (pending === undefined || !(pending.expiresAt.getTime() > this.#clock.now())) {
      this.#events.record({ type: 'second-factor.failed', purpose: 'sign-in', clientAddress: context?.clientAddress });
      throw invalidSecondFactor();
    }
    const subject = pending.subject;
    return this.#throttled(subject, 'sign-in', context, async () => {
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
    await this.#throttled(subject, 'step-up', context, async () => {
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
  passkeyRegistrationOptions(subject: string, userName: string): Promise<PasskeyOptionsJson> {
    return this.#passkeys.registrationOptions(subject, userName);
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
    const wasRequired = await this.required(subject);
    let id: string;
    try {
      id = await this.#passkeys.register(subject, response);
    } catch (error) {
      if (isInvalidSecondFactor(error)) this.#events.record({ type: 'second-factor.failed', subject, purpose: 'enrolment' });
      throw error;
    }
    this.#events.record({ type: 'passkey.added', subject, passkeyId: id });
    return { id, recoveryCodes: await this.#firstFactorAdded(subject, sessionId, wasRequired) };
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
  passkeyAuthenticationOptions(subject?: string): Promise<PasskeyOptionsJson> {
    return this.#passkeys.authenticationOptions(subject);
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
    let subject: string;
    try {
      subject = (await this.#passkeys.check(response, undefined, 'sign-in')).subject;
    } catch (error) {
      if (isInvalidSecondFactor(error)) this.#events.record({ type: 'second-factor.failed', purpose: 'sign-in', clientAddress: context?.clientAddress });
      throw error;
    }
    const pair = await issuing.startSession(subject, context);
    await this.#markVerified(pair, subject);
    return pair;
  }

  /** The subject's factors a pending sign-in accepts. */
  async #factorsOf(subject: string): Promise<SecondFactorKind[]> {
    const status = await this.status(subject);
    const factors: SecondFactorKind[] = [];
    if (status.totp) factors.push('totp');
    if (status.passkeys > 0 && this.#passkeys.configured) factors.push('passkey');
    if (status.recoveryCodes > 0) factors.push('recovery-code');
    return factors;
  }

  /** Checks one proof for the subject; throws the one 401 otherwise. */
  async #verify(subject: string, proof: SecondFactorProof, purpose: 'sign-in' | 'step-up'): Promise<void> {
    if (typeof proof !== 'object' || proof === null) throw invalidSecondFactor();
    if ('totp' in proof) return this.#totp.verify(subject, proof.totp);
    if ('recoveryCode' in proof) {
      await this.#recovery.verify(subject, proof.recoveryCode);
      this.#events.record({ type: 'recovery-code.used', subject });
      return;
    }
    if ('passkey' in proof) {
      await this.#passkeys.check(proof.passkey, subject, purpose);
      return;
    }
    throw invalidSecondFactor();
  }

  /** After a first factor: recovery codes (when there are none), the other sessions ended, this one verified. */
  async #firstFactorAdded(subject: string, sessionId: string | undefined, wasRequired: boolean): Promise<readonly string[] | undefined> {
    if (sessionId !== undefined) await this.#store.markSessionVerified(sessionId, subject, new Date(this.#clock.now()));
    if (wasRequired) return undefined;
    // Sessions that started without the factor would otherwise refresh for ever without it.
    await this.#issuingOrFail().revokeOtherSessions(subject, sessionId ?? '');
    return (await this.#recovery.count(subject)) > 0 ? undefined : this.regenerateRecoveryCodes(subject);
  }

  async #markVerified(pair: TokenPair, subject: string): Promise<void> {
    const sessionId = sessionIdOfAccessToken(pair.accessToken);
    if (sessionId !== undefined) await this.#store.markSessionVerified(sessionId, subject, new Date(this.#clock.now()));
  }

  /**
   * Counts a refused factor as a failed sign-in of `second-factor` + subject (429 once over), and
   * records it as a security event.
   */
  async #throttled<T>(subject: string, purpose: SecondFactorPurpose, context: SignInContext | undefined, run: () => Promise<T>): Promise<T> {
    const recorded = async (): Promise<T> => {
      try {
        return await run();
      } catch (error) {
        if (isInvalidSecondFactor(error)) this.#events.record({ type: 'second-factor.failed', subject, purpose, clientAddress: context?.clientAddress });
        throw error;
      }
    };
    return this.#throttle === null ? recorded() : this.#throttle.attempt(`second-factor\n${subject}`, context, recorded);
  }

  #issuingOrFail(): GatedSessionIssuing {
    // Fail closed: without the issuing service nothing can start a session.
    if (this.#issuing === undefined) throw new Error('SecondFactorService: no issuing service attached (configure issuing with secondFactors)');
    return this.#issuing;
  }
}
