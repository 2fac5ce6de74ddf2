import type { Clock } from '../../../index.js';
import type { SecurityEventSink, SessionRevocationReason } from '../../events/security-event.js';
import type { SessionInfo } from '../state/session-info.js';
import type { SessionRevocationListener } from '../state/session-revocation-listener.js';
import type { CompleteRefreshTokenStore } from './complete-refresh-token-store.js';
import type { RefreshTokenRecord } from './refresh-token-record.js';
import { liveSessionsOf } from './session-rows.js';

/**
 * Every way a session ends, in one place: the store's revocation, the `session.revoked` security
 * event and the revocation listener (which refuses the session's access tokens on every instance
 * and closes its sockets), in that order. `TokenIssuingService` answers its public operations
 * (sign-out, revokeSession, revokeAllSessions, ...) with it, and a reused refresh token ends its
 * session here too, so every path records and tells alike.
 *
 * @example
 * const revoker = new SessionRevoker(store, clock, events, listener);
 * await revoker.revokeAllSessions('u_1');
 */
export class SessionRevoker {
  readonly #store: CompleteRefreshTokenStore;
  readonly #clock: Clock;
  readonly #events: SecurityEventSink;
  readonly #listener: SessionRevocationListener | undefined;

  constructor(store: CompleteRefreshTokenStore, clock: Clock, events: SecurityEventSink, listener: SessionRevocationListener | undefined) {
    this.#store = store;
    this.#clock = clock;
    this.#events = events;
    this.#listener = listener;
  }

  /** The subject's sessions that can still refresh, oldest first. */
  async listSessions(subject: string): Promise<readonly SessionInfo[]> {
    return liveSessionsOf(await this.#store.listSessions(subject), this.#clock.now());
  }

  /** Ends one live session of the subject; false, changing nothing, for any other id. */
  async revokeSession(subject: string, sessionId: string): Promise<boolean> {
    // Listed first, so a store that cannot list sessions rejects whatever the id.
    const sessions = await this.listSessions(subject);
    if (typeof sessionId !== 'string' || sessionId === '') return false;
    if (!sessions.some((session) => session.id === sessionId)) return false;
    await this.#revokeFamily(subject, sessionId, 'revoked');
    return true;
  }

  /** Ends every session of the subject but `keepSessionId`. */
  async revokeOtherSessions(subject: string, keepSessionId: string): Promise<void> {
    for (const session of await this.listSessions(subject)) {
      if (session.id !== keepSessionId) await this.#revokeFamily(subject, session.id, 'others-revoked');
    }
  }

  /** Revokes one refresh token (already hashed) and ends its session; unknown and revoked tokens are a no-op. */
  async signOut(tokenHash: string): Promise<void> {
    await this.#revokeToken(tokenHash, await this.#store.find(tokenHash));
  }

  /** Ends the session of a refresh token known by its hash: a rotated one as a reused token's session ends. */
  async revokeSessionOfToken(tokenHash: string): Promise<void> {
    const record = await this.#store.find(tokenHash);
    if (record == null || record.revokedAt != null) return;
    if (record.rotatedAt == null) await this.#revokeToken(tokenHash, record);
    else await this.revokeReused(record, 'sign-out');
  }

  /** Revokes one token and ends its session as sign-out does (recorded only if it was not revoked already). */
  async #revokeToken(tokenHash: string, record: RefreshTokenRecord | null | undefined): Promise<void> {
    await this.#store.revoke(tokenHash);
    if (record != null && record.revokedAt == null) this.#record(record.subject, record.familyId ?? undefined, 'sign-out');
    await this.#tellSessionEnded(record?.familyId);
  }

  /**
   * Ends a reused (or, for `revokeSessionOfToken`, a rotated) token's session: its family, or
   * every token of the subject when the store cannot revoke one family.
   */
  async revokeReused(record: RefreshTokenRecord, reason: 'reuse' | 'sign-out'): Promise<void> {
    // Read before the store changes (see revokeAllSessions).
    const cutoffMs = this.#clock.now();
    const ended = await this.#store.revokeReused(record);
    if (ended.scope === 'family') {
      this.#record(record.subject, ended.familyId, reason);
      await this.#tellSessionEnded(ended.familyId);
    } else {
      this.#record(ended.subject, undefined, reason);
      await this.#tellQuietly((listener) => listener.allSessionsRevoked(ended.subject, cutoffMs));
    }
  }

  /**
   * Revokes every refresh token of the subject; the access tokens of sessions started before the
   * store changed are refused (the cutoff is read first, so a session started while this runs may
   * keep its access token rather than a session the store missed losing every token).
   */
  async revokeAllSessions(subject: string): Promise<void> {
    const cutoffMs = this.#clock.now();
    await this.#store.revokeAllForSubject(subject);
    this.#record(subject, undefined, 'all-revoked');
    await this.#listener?.allSessionsRevoked(subject, cutoffMs);
  }

  /** Ends every session of every account (the store's `revokeEverySession`, then every instance). */
  async revokeEverySession(): Promise<void> {
    const cutoffMs = this.#clock.now();
    await this.#store.revokeEverySession();
    this.#events.record({ type: 'session.revoked', reason: 'everyone-revoked' });
    await this.#listener?.everySessionRevoked(cutoffMs);
  }

  async #revokeFamily(subject: string, sessionId: string, reason: SessionRevocationReason): Promise<void> {
    await this.#store.revokeFamily(sessionId);
    this.#record(subject, sessionId, reason);
    await this.#listener?.sessionRevoked(sessionId);
  }

  /** Records the security event of a session (or, without an id, every session of the subject) ended. */
  #record(subject: string, sessionId: string | undefined, reason: SessionRevocationReason): void {
    this.#events.record({ type: 'session.revoked', subject, sessionId, reason });
  }

  /** Tells the listener a session ended (see {@link #tellQuietly}). */
  async #tellSessionEnded(familyId: string | null | undefined): Promise<void> {
    if (typeof familyId !== 'string' || familyId === '') return;
    await this.#tellQuietly((listener) => listener.sessionRevoked(familyId));
  }

  /** Tells the listener, if any, of a revocation the store has made; failing to tell is not the caller's failure (the store's stands, the bus logs its outage). */
  async #tellQuietly(tell: (listener: SessionRevocationListener) => Promise<void>): Promise<void> {
    if (this.#listener === undefined) return;
    try {
      await tell(this.#listener);
    } catch {} // Deliberately ignored; see above.
  }
}
