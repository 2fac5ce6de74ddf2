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
 * | `session.revoked` | sign-out (a browser signing in again, by password or an outside provider, signs its old session out), one session revoked from the session list, the others, all of them, everyone's (no subject), a reuse |
 * | `password.changed` | a password change or a reset |
 * | `email.changed` | an e-mail change confirmed by its link |
 * | `account.disabled` | `disableAccount` |
 * | `api-key.created`, `api-key.revoked` | an API key's creation (the app records it) and revocation (`CREDENTIAL_REVOCATION.apiKeyRevoked`) |
 * | `access.refused` | an authenticated caller refused by the module's guards (ASVS 16.3.2): a missing role or scope, a failed CSRF check (logged as a warning), a sign-in not recent enough |
 * | `second-factor.enabled`, `second-factor.removed` | a TOTP confirmed (the factor on) or removed |
 * | `passkey.added`, `passkey.removed` | a passkey registered or removed (`passkeyId`: the credential's public id) |
 * | `recovery-codes.regenerated`, `recovery-code.used` | ten new recovery codes; one spent (a second step or a step-up) |
 * | `second-factor.failed` | a refused second factor: a wrong, used or unknown code or passkey, an unknown or expired pending sign-in (`subject` when known; logged as a warning) |
 * | `outside-sign-in.succeeded`, `outside-sign-in.failed` | a provider's sign-in that reached an account (before any second step), or was refused (`reason`; logged as a warning) |
 * | `identity.linked`, `identity.unlinked` | a provider identity linked to an account (while signed in, by verified e-mail, or to an account made for it) or unlinked |
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
  | { readonly type: 'access.refused'; readonly reason: AccessRefusalReason; readonly subject?: string | undefined; readonly keyId?: string | undefined; readonly route?: string | undefined; readonly clientAddress?: string | undefined }
  | { readonly type: 'second-factor.enabled' | 'second-factor.removed'; readonly subject: string; readonly factor: 'totp' }
  | { readonly type: 'passkey.added' | 'passkey.removed'; readonly subject: string; readonly passkeyId: string }
  | { readonly type: 'recovery-codes.regenerated' | 'recovery-code.used'; readonly subject: string }
  | { readonly type: 'second-factor.failed'; readonly subject?: string | undefined; readonly purpose: SecondFactorPurpose; readonly clientAddress?: string | undefined }
  | { readonly type: 'outside-sign-in.succeeded'; readonly provider: string; readonly subject: string; readonly clientAddress?: string | undefined }
  | { readonly type: 'outside-sign-in.failed'; readonly provider: string; readonly reason: OutsideSignInFailure; readonly clientAddress?: string | undefined }
  | { readonly type: 'identity.linked' | 'identity.unlinked'; readonly subject: string; readonly provider: string };

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
 * What a refused second factor was for: the sign-in's second step (or a passkey-only sign-in),
 * a step-up, or confirming a new factor.
 *
 * @example
 * const purpose: SecondFactorPurpose = 'step-up';
 */
export type SecondFactorPurpose = 'sign-in' | 'step-up' | 'enrolment';

/**
 * Why an outside sign-in was refused: a callback whose flow is unknown, used, expired or another
 * browser's (`flow-refused`, 400: a replay or a login-CSRF attempt), the provider's answer failed a check (`provider-answer`,
 * 401), the provider did not answer (`provider-unavailable`, 503), no account for the identity
 * (`no-account`, 403) or one that cannot sign in (`account-disabled`, 403). Which check failed is
 * only in the log line of the refusal, never in the event.
 *
 * @example
 * const reason: OutsideSignInFailure = 'provider-answer';
 */
export type OutsideSignInFailure = 'flow-refused' | 'provider-answer' | 'provider-unavailable' | 'no-account' | 'account-disabled';

/**
 * Why a session was revoked: `sign-out` (its refresh token), `revoked` (one session, from the session
 * list), `others-revoked` (every session but the caller's), `all-revoked` (every session of the
 * subject: a reset, a disabled account, "sign out everywhere"), `everyone-revoked` (every session of
 * every account: `revokeEverySession`), `reuse` (its rotated refresh token came back).
 *
 * @example
 * const reason: SessionRevocationReason = 'sign-out';
 */
export type SessionRevocationReason = 'sign-out' | 'revoked' | 'others-revoked' | 'all-revoked' | 'everyone-revoked' | 'reuse';

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
