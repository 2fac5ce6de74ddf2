import { systemClock } from '../../../index.js';
import { checkedClock } from '../../../internal/primitives.js';
import { recordRefreshReuse } from '../../shared/auth-telemetry.js';
import type { Clock } from '../../../index.js';
import { replacesPasswordHashes, type CredentialStore, type StoredCredential } from './credential-store.js';
import { createPasswordRehash, type PasswordRehash } from './password-rehash.js';
import { isWellFormedRefreshToken } from './generate-refresh-token.js';
import { SessionTokens } from './session-tokens.js';
import { hashRefreshToken } from './hash-refresh-token.js';
import { invalidCredentials } from './invalid-credentials.js';
import { createDefaultPasswordVerifier } from './password-verifier.js';
import type { PasswordVerifier } from './password-verifier.js';
import type { RefreshTokenRecord } from './refresh-token-record.js';
import { isWithinReuseGrace, refreshTokenState } from './refresh-token-state.js';
import { completeRefreshTokenStore, type CompleteRefreshTokenStore } from './complete-refresh-token-store.js';
import { sessionEndOf, sessionStartOfRecord } from './session-lifetime.js';
import { SessionRevoker } from './session-revoker.js';
import { resolveTokenLifetimes } from './token-issuing-options.js';
import type { ResolvedTokenLifetimes, TokenIssuingServiceOptions } from './token-issuing-options.js';
import type { TokenPair } from './token-pair.js';
import type { SignInContext } from './sign-in-context.js';
import type { SessionInfo } from '../state/session-info.js';
import { validateLoadedClaims } from './validate-claims.js';
import type { SecondFactorGate, SignInStep } from './second-factor-gate.js';
import { SecondFactorRequiredException } from './second-factor-required.js';
import { NO_SECURITY_EVENTS, type SecurityEventSink } from '../../events/security-event.js';
import type { ClaimsSchema } from './validate-claims.js';
/**
 * Sign-in, refresh with rotation, sign-out and session revocation, exactly per the refresh-token
 * state table of SPEC.md:
 *
 * | State | refresh(token) does |
 * |---|---|
 * | unknown, revoked, expired | 401 `Invalid credentials`; nothing changes |
 * | its session older than `sessionMaxAge` (or of unknown start) | 401; nothing changes: refresh never extends a session past its absolute lifetime |
 * | rotated, within the grace window | 401; nothing changes |
 * | rotated, outside the grace window (reuse) | revokes the token's family, or every token of the subject when the store cannot; 401 |
 * | active | rotates: the successor (same family) is stored and the old token marked rotated; losing the compare-and-set is a 401 |
 *
 * The store is completed once, in the constructor ({@link completeRefreshTokenStore}): a store
 * with only SPEC's required operations gets the successor-first rotation and the subject-wide
 * reuse revocation there, so this class works against one complete contract.
 *
 * Every client-facing refusal is the same `UnauthorizedException('Invalid credentials')`. Server
 * faults (claims failing the schema, `issueTokens` for an account that cannot sign in, store
 * errors) are plain Errors. No error message carries a token, hash, password or claim value.
 * Only SHA-256 hashes of refresh tokens (see `hashRefreshToken`) reach the store.
 *
 * @example
 * const auth = new TokenIssuingService({ claimsSchema: Claims, credentialStore: accounts, refreshTokenStore: new InMemoryRefreshTokenStore(), accessTokens: signer });
 * const pair = await auth.signIn('alice@acme.test', 'tessera-demo-password');
 * const next = await auth.refresh(pair.refreshToken);
 * await auth.signOut(next.refreshToken);
 */
export class TokenIssuingService<Claims> {
  /** The durations in effect, defaults applied. */
  readonly settings: ResolvedTokenLifetimes;
  readonly #claimsSchema: ClaimsSchema<Claims>;
  readonly #credentials: CredentialStore<Claims>;
  readonly #refreshTokens: CompleteRefreshTokenStore;
  readonly #tokens: SessionTokens<Claims>;
  readonly #clock: Clock;
  readonly #passwords: PasswordVerifier;
  /** Undefined with a `passwordVerifier` of the app's own: its hashes are its business. */
  readonly #rehash: PasswordRehash | undefined;
  readonly #revoker: SessionRevoker;
  readonly #gate: SecondFactorGate | undefined;
  readonly #events: SecurityEventSink;

  constructor(options: TokenIssuingServiceOptions<Claims>) {
    this.settings = resolveTokenLifetimes(options);
    this.#claimsSchema = options.claimsSchema;
    this.#credentials = options.credentialStore;
    this.#refreshTokens = completeRefreshTokenStore(options.refreshTokenStore);
    this.#tokens = new SessionTokens(options.accessTokens, this.#refreshTokens, this.settings);
    this.#clock = checkedClock(options.clock ?? systemClock);
    this.#passwords = options.passwordVerifier ?? createDefaultPasswordVerifier(options.passwordHasher);
    this.#rehash = options.passwordVerifier === undefined ? createPasswordRehash(options.passwordHasher) : undefined;
    this.#events = options.securityEvents ?? NO_SECURITY_EVENTS;
    this.#revoker = new SessionRevoker(this.#refreshTokens, this.#clock, this.#events, options.sessionRevocations);
    this.#gate = options.secondFactorGate;
    // The gate gets the one ungated way to start a session, for after the factor passed.
    this.#gate?.attach({
      startSession: async (subject, context) => {
        const claims = await this.#loadClaims(subject);
        if (claims === undefined) throw invalidCredentials();
        return this.#startSession(subject, claims, context);
      },
      revokeOtherSessions: (subject, keepSessionId) => this.revokeOtherSessions(subject, keepSessionId),
    });
  }

  /**
   * Signs in with an identifier and password and starts a new token family.
   *
   * @throws UnauthorizedException `Invalid credentials` for an unknown identifier, a wrong
   * password or an account that cannot sign in now (loadClaims empty), identical in all three.
   * @throws Error when the loaded claims fail the claims schema (a server fault).
   * @throws SecondFactorRequiredException (401) when the account has a second factor: use
   * {@link beginSignIn}, which can answer the second step.
   * `context` (user agent, client address) is kept with the session for `listSessions`.
   *
   * @example
   * const { accessToken, refreshToken } = await auth.signIn('alice@acme.test', password, { userAgent, clientAddress });
   */
  async signIn(identifier: string, password: string, context?: SignInContext): Promise<TokenPair> {
    const { subject, claims } = await this.#checkPassword(identifier, password, context);
    // One step cannot ask for the factor: refuse rather than start a session without it.
    if (await this.#factorRequired(subject)) throw new SecondFactorRequiredException();
    return this.#startSession(subject, claims, context);
  }

  /**
   * Signs in with an identifier and password, in two steps when the account has a second factor:
   * answers the session, or the second step (`secondFactorRequiredAnswer(step.step)` answers it
   * over HTTP) whose pending token `SECOND_FACTORS.completeSignIn` exchanges, with the factor,
   * for the session. Failures as {@link signIn}.
   *
   * @example
   * const step = await auth.beginSignIn('alice@acme.test', password, context);
   * if (step.kind === 'session') return toJson(step.pair);
   */
  async beginSignIn(identifier: string, password: string, context?: SignInContext): Promise<SignInStep> {
    const { subject, claims } = await this.#checkPassword(identifier, password, context);
    return this.#stepFor(subject, claims, context);
  }

  /**
   * Starts a session for a subject authenticated by other means (an outside provider's login), in
   * two steps when the subject has a second factor, exactly as {@link beginSignIn}: the one gate
   * every sign-in path passes.
   *
   * @throws Error when loadClaims returns nothing or the claims fail the schema (as issueTokens).
   * @example
   * const step = await auth.beginSession(localSubject, context);
   */
  async beginSession(subject: string, context?: SignInContext): Promise<SignInStep> {
    const claims = await this.#loadClaims(subject);
    if (claims === undefined) {
      throw new Error('beginSession: CredentialStore.loadClaims returned nothing for this subject, so it cannot be issued tokens');
    }
    return this.#stepFor(subject, claims, context);
  }

  /** The identifier and password checked: the subject and its claims, or the one 401. */
  async #checkPassword(identifier: string, password: string, context: SignInContext | undefined): Promise<{ subject: string; claims: Claims & Record<string, unknown> }> {
    const account = await this.#credentials.findByIdentifier(identifier);
    // Exactly one real verification on every path: for an unknown identifier it runs against the
    // cached dummy hash, so the response time does not tell whether the account exists.
    const phc = account == null ? await this.#passwords.dummyHash() : account.passwordHash;
    const passwordMatches = await this.#passwords.verify(password, phc);
    // The subject only of an account that exists; never the identifier as typed (it may be a password).
    const failed = () => {
      this.#events.record({ type: 'sign-in.failed', subject: account?.subject, clientAddress: context?.clientAddress });
      return invalidCredentials();
    };
    if (account == null || !passwordMatches) throw failed();
    const claims = await this.#loadClaims(account.subject);
    if (claims === undefined) throw failed();
    await this.#rehashIfStale(account, password);
    return { subject: account.subject, claims };
  }

  /**
   * After a successful password check only: stores a fresh hash when the stored one was made with
   * other Argon2id parameters than the configured ones (ASVS 5.0 11.2.2), compare-and-set so that
   * a password changed meanwhile keeps its new hash. Best effort: the old hash still verifies, so
   * a store that fails here does not fail the sign-in (the next one tries again).
   */
  async #rehashIfStale(account: StoredCredential, password: string): Promise<void> {
    const store = this.#credentials;
    if (this.#rehash === undefined || !replacesPasswordHashes(store)) return;
    try {
      const fresh = await this.#rehash.freshHash(password, account.passwordHash);
      if (fresh !== undefined) await store.replacePasswordHash(account.subject, account.passwordHash, fresh);
    } catch {} // Deliberately ignored; see above.
  }

  async #stepFor(subject: string, claims: Claims & Record<string, unknown>, context: SignInContext | undefined): Promise<SignInStep> {
    if (this.#gate !== undefined && (await this.#gate.required(subject))) return { kind: 'second-factor', step: await this.#gate.begin(subject) };
    return { kind: 'session', pair: await this.#startSession(subject, claims, context) };
  }

  async #factorRequired(subject: string): Promise<boolean> {
    return this.#gate !== undefined && (await this.#gate.required(subject));
  }

  /**
   * Issues a token pair (a new family) for a subject authenticated by other means (a magic link,
   * an external identity provider). No password is checked: the caller vouches for the subject.
   *
   * @throws Error when loadClaims returns nothing (the caller should not have asked) or the claims
   * fail the schema.
   * @throws SecondFactorRequiredException (401) when the subject has a second factor: use
   * {@link beginSession}.
   * @example
   * const pair = await auth.issueTokens(userIdFromOidc);
   */
  async issueTokens(subject: string, context?: SignInContext): Promise<TokenPair> {
    const claims = await this.#loadClaims(subject);
    if (claims === undefined) {
      throw new Error('issueTokens: CredentialStore.loadClaims returned nothing for this subject, so it cannot be issued tokens');
    }
    // A subject with a second factor starts a session only through beginSession's second step.
    if (await this.#factorRequired(subject)) throw new SecondFactorRequiredException();
    return this.#startSession(subject, claims, context);
  }

  /**
   * The subject's sessions that can still refresh (one per sign-in, i.e. per device), oldest
   * first. Needs a store with `listSessions`.
   *
   * @throws Error when the refresh-token store has no `listSessions`.
   * @example
   * const sessions = await auth.listSessions(user.sub); // [{ id, startedAt, lastUsedAt, userAgent, clientAddress }]
   */
  listSessions(subject: string): Promise<readonly SessionInfo[]> {
    return this.#revoker.listSessions(subject);
  }

  /**
   * Ends one of the subject's sessions: its refresh tokens are revoked and its access tokens
   * refused on every instance, its sockets closed (1008). Answers false, changing nothing, for an
   * id that is not a live session of this subject: another person's session answers exactly as
   * an unknown id, so the answer tells nothing about other people's sessions.
   *
   * @throws Error when the refresh-token store has no `listSessions` or `revokeFamily`.
   * @example
   * const ended = await auth.revokeSession(user.sub, params.id); // false: answer 404
   */
  revokeSession(subject: string, sessionId: string): Promise<boolean> {
    return this.#revoker.revokeSession(subject, sessionId);
  }

  /**
   * Ends every session of the subject except `keepSessionId` (the caller's own, read from its
   * access token's `sid`), e.g. "sign out everywhere else" or after a password change. A session
   * started while this runs is kept.
   *
   * @throws Error when the refresh-token store has no `listSessions` or `revokeFamily`.
   * @example
   * await auth.revokeOtherSessions(user.sub, user.sid);
   */
  revokeOtherSessions(subject: string, keepSessionId: string): Promise<void> {
    return this.#revoker.revokeOtherSessions(subject, keepSessionId);
  }

  /** @deprecated Renamed {@link revokeSession} (one word for ending a session); removed in 0.3. @example await auth.revokeSession(sub, id); */
  readonly endSession = (subject: string, sessionId: string): Promise<boolean> => this.revokeSession(subject, sessionId);
  /** @deprecated Renamed {@link revokeOtherSessions}; removed in 0.3. @example await auth.revokeOtherSessions(sub, sid); */
  readonly endOtherSessions = (subject: string, keepSessionId: string): Promise<void> => this.revokeOtherSessions(subject, keepSessionId);

  /**
   * Exchanges a refresh token for a new pair, rotating it (see the class table).
   *
   * @throws UnauthorizedException `Invalid credentials` for a malformed, unknown, revoked,
   * expired or rotated token, when the account cannot sign in now, or when a concurrent refresh
   * of the same token won.
   * @throws Error when the loaded claims fail the claims schema.
   * @example
   * const next = await auth.refresh(pair.refreshToken);
   */
  async refresh(refreshToken: string): Promise<TokenPair> {
    // Not one of our tokens: refuse before hashing or a store round trip.
    if (!isWellFormedRefreshToken(refreshToken)) throw invalidCredentials();
    const tokenHash = hashRefreshToken(refreshToken);
    const record = await this.#refreshTokens.find(tokenHash);
    if (record == null) throw invalidCredentials();
    const now = this.#clock.now();
    switch (refreshTokenState(record, now)) {
      case 'revoked':
      case 'expired':
        throw invalidCredentials();
      case 'rotated':
        if (!isWithinReuseGrace(record.rotatedAt, now, this.settings.refreshReuseGraceSeconds)) {
          // A rotated token came back: whoever holds it is not (only) the legitimate client.
          recordRefreshReuse();
          this.#events.record({ type: 'refresh-token.reused', subject: record.subject, sessionId: record.familyId ?? undefined });
          await this.#revoker.revokeReused(record, 'reuse');
        }
        throw invalidCredentials();
      case 'active':
        // The absolute lifetime, read again here: a token stored before it was bounded (or by
        // a longer setting) must not carry its session on past it.
        if (!(now < this.#sessionEnd(record))) throw invalidCredentials();
        return this.#rotate(tokenHash, record, now);
    }
  }

  /**
   * Revokes one refresh token and ends its session: with `sessionRevocations` (the auth module's
   * default), the session's access tokens are refused from now on. Idempotent: unknown, malformed
   * and already-revoked tokens are a no-op, and it never reveals which it was.
   *
   * @example
   * await auth.signOut(pair.refreshToken);
   */
  async signOut(refreshToken: string): Promise<void> {
    if (!isWellFormedRefreshToken(refreshToken)) return;
    await this.#revoker.signOut(hashRefreshToken(refreshToken));
  }

  /**
   * Ends the session a refresh token belongs to, the token known by its SHA-256
   * (`hashRefreshToken`), with the same record and revocation as {@link signOut}: for a sign-in
   * that replaces the session a browser held (ASVS 5.0 7.2.4; `BrowserSessions` calls it, the
   * outside sign-in with the hash it kept from the flow's start). When the token was rotated since
   * (the page refreshed meanwhile), its session went on under a successor: the session is ended as
   * a reused token's is (its family, or every token of the subject when the store cannot revoke
   * one family). Unknown and already-revoked tokens are a no-op.
   *
   * @example
   * await auth.revokeSessionOfToken(hashRefreshToken(cookieRefreshToken));
   */
  revokeSessionOfToken(tokenHash: string): Promise<void> {
    return this.#revoker.revokeSessionOfToken(tokenHash);
  }

  /**
   * Revokes every refresh token of a subject, e.g. after a password change or when disabling the
   * account. With `sessionRevocations` (the auth module's default) the access tokens of every
   * session the subject started before this call are refused too, on every instance the bus
   * reaches; a session started after it (a sign-in with the new password) is not affected.
   * Rejects when the revocation could not be told (the bus is down): the refresh tokens are
   * revoked and this instance refuses the access tokens, but other instances accept them until
   * they expire.
   *
   * @example
   * await auth.revokeAllSessions(user.id);
   */
  revokeAllSessions(subject: string): Promise<void> {
    return this.#revoker.revokeAllSessions(subject);
  }

  /**
   * Ends every session of every account, on every instance: an administrator's operation (ASVS 5.0
   * 7.4.5), e.g. after a breach. Every refresh token is revoked in the store, and the access tokens
   * of every session started before this call are refused wherever the revocation bus reaches (an
   * instance that cannot hear it, or starts later, reads the ended sessions from the store); their
   * sockets close. Everyone signs in again; a session started while this runs may keep its access
   * token (its refresh token is revoked). API keys are not sessions: they stay. Recorded as
   * `session.revoked` with reason `everyone-revoked` and no subject. Needs a refresh-token store
   * with `revokeEverySession` (the in-memory and PostgreSQL stores have it).
   *
   * @throws Error when the refresh-token store has no `revokeEverySession` (nothing is revoked).
   * @example
   * await auth.revokeEverySession(); // behind an administrator's guard
   */
  revokeEverySession(): Promise<void> {
    return this.#revoker.revokeEverySession();
  }

  /** Validated claims, or undefined when the account cannot sign in now. */
  async #loadClaims(subject: string): Promise<(Claims & Record<string, unknown>) | undefined> {
    const loaded = await this.#credentials.loadClaims(subject);
    if (loaded == null) return undefined;
    return validateLoadedClaims(this.#claimsSchema, loaded);
  }

  /** When the record's session ends for good (ms); -Infinity when its start cannot be told (fail closed). */
  #sessionEnd(record: RefreshTokenRecord): number {
    return sessionEndOf(sessionStartOfRecord(record) ?? -Infinity, this.settings.sessionMaxAge);
  }

  /** Starts a session and records the sign-in's success (every path that starts a session ends here). */
  async #startSession(subject: string, claims: Claims & Record<string, unknown>, context: SignInContext | undefined): Promise<TokenPair> {
    const started = await this.#tokens.start(subject, claims, context, this.#clock.now());
    this.#events.record({ type: 'sign-in.succeeded', subject, sessionId: started.sessionId, clientAddress: context?.clientAddress });
    return started.pair;
  }

  async #rotate(tokenHash: string, record: RefreshTokenRecord, now: number): Promise<TokenPair> {
    const claims = await this.#loadClaims(record.subject);
    if (claims === undefined) throw invalidCredentials();
    const pair = await this.#tokens.rotate(tokenHash, record, claims, now);
    if (pair === undefined) throw invalidCredentials();
    return pair;
  }
}
