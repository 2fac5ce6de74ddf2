/**
 * One security event of the auth module (ASVS 5.0 16.3.1): what happened, to whom, from where.
 * Fields are identifiers an operator correlates (a subject, a session id, an API key's id, a client
 * address), never a secret: no password, token, key, link or typed identifier (a person may type
 * their password into the e-mail field). `type` names the event; the log line's `event` field is
 * `auth.` followed by it.
 *
 * | type | when |
 * | --- | --- |
 * | `sign-in.succeeded` | a session started by a password sign-in |
 * | `sign-in.failed` | a wrong password, an unknown identifier or an account that cannot sign in (`subject` only when the account exists) |
 * | `sign-in.throttled` | a sign-in refused by throttling before the password was checked (429) |
 * | `refresh-token.reused` | a rotated refresh token came back: likely stolen; its session is revoked (logged as a warning) |
 * | `session.revoked` | sign-out (a browser signing in again signs its old session out), one session revoked from the session list, the others, all of them, a reuse |
 * | `password.changed` | a password change or a reset |
 * | `email.changed` | an e-mail change confirmed by its link |
 * | `account.disabled` | `disableAccount` |
 * | `api-key.created`, `api-key.revoked` | an API key's creation (the app records it) and revocation (`CREDENTIAL_REVOCATION.apiKeyRevoked`) |
 * | `access.refused` | an authenticated caller refused by the module's guards (ASVS 16.3.2): a missing role or scope, a failed CSRF check (logged as a warning), a sign-in not recent enough |
 *
 * @example
 * const event: SecurityEvent = { type: 'session.revoked', subject: 'u_1', sessionId: sid, reason: 'sign-out' };
 */
export type SecurityEvent =
  | { readonly type: 'sign-in.succeeded'; readonly subject: string; readonly sessionId: string; readonly clientAddress?: string | undefined }
  | { readonly type: 'sign-in.failed'; readonly subject?: string | undefined; readonly clientAddress?: string | undefined }
  | { readonly type: 'sign-in.throttled'; readonly dimension: string; readonly clientAddress?: string | undefined }
  | { readonly type: 'refresh-token.reused'; readonly subject: string; readonly sessionId?: string | undefined }
  | { readonly type: 'session.revoked'; readonly subject?: string | undefined; readonly sessionId?: string | undefined; readonly reason: SessionRevocationReason }
  | { readonly type: 'password.changed'; readonly subject: string; readonly via: 'change' | 'reset' }
  | { readonly type: 'email.changed'; readonly subject: string }
  | { readonly type: 'account.disabled'; readonly subject: string }
  | { readonly type: 'api-key.created'; readonly keyId: string; readonly subject?: string | undefined }
  | { readonly type: 'api-key.revoked'; readonly keyId: string; readonly subject?: string | undefined }
  | { readonly type: 'access.refused'; readonly reason: AccessRefusalReason; readonly subject?: string | undefined; readonly keyId?: string | undefined; readonly route?: string | undefined; readonly clientAddress?: string | undefined };

/**
 * Why the module's guards refused an authenticated caller: `role` (none of the route's `Roles`),
 * `scope` (an API key without a scope the route requires), `csrf` (a cookie-authenticated request
 * that failed the origin or CSRF-token check), `recent-auth` (a sign-in older than the route
 * accepts, or an API key where a person must have signed in).
 *
 * @example
 * const reason: AccessRefusalReason = 'role';
 */
export type AccessRefusalReason = 'role' | 'scope' | 'csrf' | 'recent-auth';

/**
 * Why a session was revoked: `sign-out` (its refresh token), `revoked` (one session, from the session
 * list), `others-revoked` (every session but the caller's), `all-revoked` (every session of the
 * subject: a reset, a disabled account, "sign out everywhere"), `reuse` (its rotated refresh token
 * came back).
 *
 * @example
 * const reason: SessionRevocationReason = 'sign-out';
 */
export type SessionRevocationReason = 'sign-out' | 'revoked' | 'others-revoked' | 'all-revoked' | 'reuse';

/**
 * Where the auth module records its security events; `SECURITY_EVENTS` resolves to the module's
 * (a {@link SecurityEvents}). Recording never throws and never waits.
 *
 * @example
 * events.record({ type: 'api-key.created', keyId: created.id, subject: user.sub });
 */
export interface SecurityEventSink {
  record(event: SecurityEvent): void;
}

/**
 * A sink that records nothing: the default of a `TokenIssuingService` or `AccountService` built by
 * hand without `securityEvents`.
 *
 * @example
 * new TokenIssuingService({ ...options, securityEvents: NO_SECURITY_EVENTS });
 */
export const NO_SECURITY_EVENTS: SecurityEventSink = Object.freeze({ record: () => undefined });
