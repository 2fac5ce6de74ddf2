import { checkedClock, systemClock } from '../../internal.js';
import { recordRefreshReuse } from '../shared/auth-telemetry.js';
import type { Clock } from '../../internal.js';
import type { AccessTokenSigner } from './access-token-signer.js';
import type { CredentialStore } from './credential-store.js';
import { isWellFormedRefreshToken } from './generate-refresh-token.js';
import { issueRefreshToken, pairOf, type IssuedRefreshToken } from './issued-refresh-token.js';
import { hashRefreshToken } from './hash-refresh-token.js';
import { invalidCredentials } from './invalid-credentials.js';
import { createDefaultPasswordVerifier } from './password-verifier.js';
import type { PasswordVerifier } from './password-verifier.js';
import type { RefreshTokenRecord } from './refresh-token-record.js';
import { isWithinReuseGrace, refreshTokenState } from './refresh-token-state.js';
import type { RefreshTokenStore } from './refresh-token-store.js';
import { newSessionId } from '../sessions/session-id.js';
import { sessionEndOf, sessionStartOfRecord } from './session-lifetime.js';
import { sessionMetadataOf, toSessionInfo, type SessionMetadata } from './session-rows.js';
import type { SessionRevocationListener } from '../sessions/session-revocation-listener.js';
import { resolveTokenIssuingSettings } from './token-issuing-options.js';
import type { TokenIssuingServiceOptions, TokenIssuingSettings } from './token-issuing-options.js';
import type { TokenPair } from './token-pair.js';
import type { SignInContext } from './sign-in-context.js';
import type { SessionInfo } from '../sessions/session-info.js';
import { validateLoadedClaims } from './validate-claims.js';
import { NO_SECURITY_EVENTS, type SecurityEventSink, type SessionRevocationReason } from '../events/security-event.js';
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
 * | rotated, outside the grace window (reuse) | revokes the token's family (`revokeFamily`), or every token of the subject when the store cannot; 401 |
 * | active | rotates: the successor (same family) is stored and the old token marked rotated, atomically with `rotate`, else successor first then the `markRotated` compare-and-set; losing the compare-and-set is a 401 |
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
  readonly settings: TokenIssuingSettings;
  readonly #claimsSchema: ClaimsSchema<Claims>;
  readonly #credentials: CredentialStore<Claims>;
  readonly #refreshTokens: RefreshTokenStore;
  readonly #accessTokens: AccessTokenSigner<Claims>;
  readonly #clock: Clock;
  readonly #passwords: PasswordVerifier;
  readonly #sessionRevocations: SessionRevocationListener | undefined;
  readonly #events: SecurityEventSink;

  constructor(options: TokenIssuingServiceOptions<Claims>) {
    this.settings = resolveTokenIssuingSettings(options);
    this.#claimsSchema = options.claimsSchema;
    this.#credentials = options.credentialStore;
    this.#refreshTokens = options.refreshTokenStore;
    this.#accessTokens = options.accessTokens;
    this.#clock = checkedClock(options.clock ?? systemClock);
    this.#passwords = options.passwordVerifier ?? createDefaultPasswordVerifier(options.passwordHasher);
    this.#sessionRevocations = options.sessionRevocations;
    this.#events = options.securityEvents ?? NO_SECURITY_EVENTS;
  }

  /**
   * Signs in with an identifier and password and starts a new token family.
   *
   * @throws UnauthorizedException `Invalid credentials` for an unknown identifier, a wrong
   * password or an account that cannot sign in now (loadClaims empty), identical in all three.
   * @throws Error when the loaded claims fail the claims schema (a server fault).
   * `context` (user agent, client address) is kept with the session for `listSessions`.
   *
   * @example
   * const { accessToken, refreshToken } = await auth.signIn('alice@acme.test', password, { userAgent, clientAddress });
   */
  async signIn(identifier: string, password: string, context?: SignInContext): Promise<TokenPair> {
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
    const started = await this.#startFamily(account.subject, claims, context);
    this.#events.record({ type: 'sign-in.succeeded', subject: account.subject, sessionId: started.sessionId, clientAddress: context?.clientAddress });
    return started.pair;
  }

  /**
   * Issues a token pair (a new family) for a subject authenticated by other means (a magic link,
   * an external identity provider). No password is checked: the caller vouches for the subject.
   *
   * @throws Error when loadClaims returns nothing (the caller should not have asked) or the claims
   * fail the schema.
   * @example
   * const pair = await auth.issueTokens(userIdFromOidc);
   */
  async issueTokens(subject: string, context?: SignInContext): Promise<TokenPair> {
    const claims = await this.#loadClaims(subject);
    if (claims === undefined) {
      throw new Error('issueTokens: CredentialStore.loadClaims returned nothing for this subject, so it cannot be issued tokens');
    }
    const started = await this.#startFamily(subject, claims, context);
    this.#events.record({ type: 'sign-in.succeeded', subject, sessionId: started.sessionId, clientAddress: context?.clientAddress });
    return started.pair;
  }

  /**
   * The subject's sessions that can still refresh (one per sign-in, i.e. per device), oldest
   * first. Needs a store with `listSessions`.
   *
   * @throws Error when the refresh-token store has no `listSessions`.
   * @example
   * const sessions = await auth.listSessions(user.sub); // [{ id, startedAt, lastUsedAt, userAgent, clientAddress }]
   */
  async listSessions(subject: string): Promise<readonly SessionInfo[]> {
    const now = this.#clock.now();
    const rows = await this.#sessionStore('listSessions').listSessions(subject);
    const sessions = new Map<string, SessionInfo>();
    for (const row of rows) {
      if (!(row.expiresAt.getTime() > now)) continue;
      const session = toSessionInfo(row);
      if (session !== undefined) sessions.set(session.id, session);
    }
    return [...sessions.values()].sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime());
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
  async revokeSession(subject: string, sessionId: string): Promise<boolean> {
    const store = this.#sessionStore('revokeSession');
    if (typeof sessionId !== 'string' || sessionId === '') return false;
    const owned = (await this.listSessions(subject)).some((session) => session.id === sessionId);
    if (!owned) return false;
    await store.revokeFamily(sessionId);
    this.#recordRevoked(subject, sessionId, 'revoked');
    await this.#sessionRevocations?.sessionRevoked(sessionId);
    return true;
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
  async revokeOtherSessions(subject: string, keepSessionId: string): Promise<void> {
    const store = this.#sessionStore('revokeOtherSessions');
    for (const session of await this.listSessions(subject)) {
      if (session.id === keepSessionId) continue;
      await store.revokeFamily(session.id);
      this.#recordRevoked(subject, session.id, 'others-revoked');
      await this.#sessionRevocations?.sessionRevoked(session.id);
    }
  }

  /** @deprecated Renamed {@link revokeSession} (one word for ending a session); removed in 0.3. @example await auth.revokeSession(sub, id); */
  readonly endSession = (subject: string, sessionId: string): Promise<boolean> => this.revokeSession(subject, sessionId);
  /** @deprecated Renamed {@link revokeOtherSessions}; removed in 0.3. @example await auth.revokeOtherSessions(sub, sid); */
  readonly endOtherSessions = (subject: string, keepSessionId: string): Promise<void> => this.revokeOtherSessions(subject, keepSessionId);

  /** The store's session operations, or a plain Error naming what the store lacks. */
  #sessionStore(operation: string): Required<Pick<RefreshTokenStore, 'listSessions' | 'revokeFamily'>> {
    const store = this.#refreshTokens;
    if (typeof store.listSessions !== 'function' || typeof store.revokeFamily !== 'function') {
      throw new Error(`${operation}: the RefreshTokenStore needs listSessions and revokeFamily (the in-memory and PostgreSQL stores have both)`);
    }
    return { listSessions: (subject) => store.listSessions!(subject), revokeFamily: (familyId) => store.revokeFamily!(familyId) };
  }

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
          await this.#revokeAfterReuse(record);
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
    const tokenHash = hashRefreshToken(refreshToken);
    const record = await this.#refreshTokens.find(tokenHash);
    await this.#refreshTokens.revoke(tokenHash);
    if (record != null && record.revokedAt == null) this.#recordRevoked(record.subject, record.familyId ?? undefined, 'sign-out');
    await this.#tellSessionEnded(record?.familyId);
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
  async revokeAllSessions(subject: string): Promise<void> {
    const cutoffMs = await this.#revokeSubjectInStore(subject);
    this.#recordRevoked(subject, undefined, 'all-revoked');
    await this.#sessionRevocations?.allSessionsRevoked(subject, cutoffMs);
  }

  /** Records the security event of a session (or, without an id, every session of the subject) ended. */
  #recordRevoked(subject: string, sessionId: string | undefined, reason: SessionRevocationReason): void {
    this.#events.record({ type: 'session.revoked', subject, sessionId, reason });
  }

  /**
   * Revokes every refresh token of `subject` and answers the cutoff for its access tokens: the
   * moment before the store changed, so a session started while it runs may keep its access token
   * (its refresh token is revoked), rather than a session the store missed losing every token.
   */
  async #revokeSubjectInStore(subject: string): Promise<number> {
    const cutoffMs = this.#clock.now();
    await this.#refreshTokens.revokeAllForSubject(subject);
    return cutoffMs;
  }

  /** Tells the listener a session ended (see {@link #tellQuietly}). */
  async #tellSessionEnded(familyId: string | null | undefined): Promise<void> {
    if (typeof familyId !== 'string' || familyId === '') return;
    await this.#tellQuietly((listener) => listener.sessionRevoked(familyId));
  }

  /** Tells the listener, if any, of a revocation the store has made; failing to tell is not the caller's failure (the store's stands, the bus logs its outage). */
  async #tellQuietly(tell: (listener: SessionRevocationListener) => Promise<void>): Promise<void> {
    if (this.#sessionRevocations === undefined) return;
    try {
      await tell(this.#sessionRevocations);
    } catch {} // Deliberately ignored; see above.
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

  async #startFamily(subject: string, claims: Claims & Record<string, unknown>, context: SignInContext | undefined): Promise<{ pair: TokenPair; sessionId: string }> {
    const now = this.#clock.now();
    const familyId = newSessionId(now);
    const sessionEnd = sessionEndOf(now, this.settings.sessionMaxAge);
    const access = await this.#accessTokens.sign(claims, subject, familyId, new Date(sessionEnd));
    const refresh = this.#newRefreshToken(subject, familyId, now, sessionEnd, sessionMetadataOf(context, now));
    await this.#refreshTokens.create(refresh.tokenHash, refresh.record);
    return { pair: pairOf(access, refresh), sessionId: familyId };
  }

  async #rotate(tokenHash: string, record: RefreshTokenRecord, now: number): Promise<TokenPair> {
    const claims = await this.#loadClaims(record.subject);
    if (claims === undefined) throw invalidCredentials();
    // A store that ignores families may return none; the successor then starts one (a store that
    // ignores families also has no revokeFamily, so reuse revokes by subject anyway).
    const familyId = typeof record.familyId === 'string' && record.familyId !== '' ? record.familyId : newSessionId(now);
    const sessionStart = sessionStartOfRecord(record);
    if (sessionStart === undefined) throw invalidCredentials(); // refresh() checked; kept for the type.
    const sessionEnd = sessionEndOf(sessionStart, this.settings.sessionMaxAge);
    // Signed before the store changes, so a signer failure leaves the old token usable.
    const access = await this.#accessTokens.sign(claims, record.subject, familyId, new Date(sessionEnd));
    // The successor carries the session's metadata on (its start too, so the bound never slides);
    // its own issuedAt is this refresh.
    const successor = this.#newRefreshToken(record.subject, familyId, now, sessionEnd, {
      sessionStartedAt: new Date(sessionStart),
      userAgent: record.userAgent ?? null,
      clientAddress: record.clientAddress ?? null,
    });
    const store = this.#refreshTokens;

    if (typeof store.rotate === 'function') {
      // One atomic step: mark the old token rotated and store the successor, or change nothing.
      const rotated = await store.rotate(tokenHash, { tokenHash: successor.tokenHash, ...successor.record });
      // Exactly `true` wins: a store leaking a truthy driver result must not let every racer win.
      if (rotated !== true) throw invalidCredentials();
      return pairOf(access, successor);
    }

    // Successor first: if anything fails between the two steps, the old token is still active
    // and the client can retry; the reverse order could strand it with no usable token.
    await store.create(successor.tokenHash, successor.record);
    let won: boolean;
    try {
      won = await store.markRotated(tokenHash);
    } catch (error) {
      // Nobody will ever receive the successor; revoke it best-effort and report the store error.
      await this.#revokeQuietly(successor.tokenHash);
      throw error;
    }
    if (won !== true) {
      // A concurrent refresh of the same token won the compare-and-set (or a revocation landed
      // first). Our successor is an orphan nobody holds: revoke it so each token has at most one
      // active successor. (Should the process die right here, the orphan stays active but is
      // harmless: its raw value was never returned to anyone.)
      await store.revoke(successor.tokenHash);
      throw invalidCredentials();
    }
    return pairOf(access, successor);
  }

  async #revokeAfterReuse(record: RefreshTokenRecord): Promise<void> {
    const store = this.#refreshTokens;
    const familyId = record.familyId;
    if (typeof store.revokeFamily === 'function' && typeof familyId === 'string' && familyId !== '') {
      await store.revokeFamily(familyId);
      this.#recordRevoked(record.subject, familyId, 'reuse');
      await this.#tellSessionEnded(familyId);
    } else {
      // Without family revocation the only safe scope is everything the subject holds.
      const cutoffMs = await this.#revokeSubjectInStore(record.subject);
      this.#recordRevoked(record.subject, undefined, 'reuse');
      await this.#tellQuietly((listener) => listener.allSessionsRevoked(record.subject, cutoffMs));
    }
  }

  async #revokeQuietly(tokenHash: string): Promise<void> {
    try {
      await this.#refreshTokens.revoke(tokenHash);
    } catch {
      // The store is already failing; the original error is the one worth reporting.
    }
  }

  /** A refresh token living `refreshTokenTtl` from now, but never past its session's end. */
  #newRefreshToken(subject: string, familyId: string, now: number, sessionEnd: number, session: SessionMetadata): IssuedRefreshToken {
    return issueRefreshToken({ subject, familyId, issuedAt: new Date(now), expiresAt: new Date(Math.min(now + this.settings.refreshTokenTtl * 1000, sessionEnd)), ...session });
  }
}
