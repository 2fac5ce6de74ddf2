// What the account service is built from (the lifecycle options the user writes, and the
// dependencies the module wires in) and what its operations take.
import type { Clock, Logger, RateLimitCounter } from '../../index.js';
import type { Awaitable } from '../shared/awaitable.js';
import type { ClaimsSchema } from '../sessions/issuing/validate-claims.js';
import type { SignInContext } from '../sessions/issuing/sign-in-context.js';
import type { AccountMailTemplates } from './mail/account-mail-templates.js';
import type { Mailer } from './mail/mailer.js';
import type { PasswordHasher } from '../credentials/password/index.js';
import type { AccountMailQueue } from './account-mail-intent.js';
import type { SignInThrottle } from '../throttle/sign-in-throttle.js';
import type { AccountLinks } from './account-links.js';
import type { AccountStore } from './account-store.js';
import type { PasswordPolicyOptions } from './password-policy.js';
import type { SecurityEventSink } from '../events/security-event.js';

/**
 * How long mailed links work, in seconds: `verifyEmail` (default 86400, a day), `resetPassword`
 * (default 3600, an hour: a reset link in a mailbox is a way into the account) and `changeEmail`
 * (default 86400).
 *
 * @example
 * tokenTtl: { resetPassword: 900 }
 */
export interface AccountTokenTtl {
  readonly verifyEmail?: number;
  readonly resetPassword?: number;
  readonly changeEmail?: number;
}

/**
 * The session operations the account service needs from the auth service: a reset ends every
 * session of the account (on every instance), a password change every session but the caller's.
 *
 * @example
 * const sessions: AccountSessions = auth; // an AuthService
 */
export interface AccountSessions {
  revokeAllSessions(subject: string): Promise<void>;
  revokeOtherSessions(subject: string, keepSessionId: string): Promise<void>;
}

/**
 * What a new account is made of besides its address and password: the claims its access tokens
 * will carry (they must satisfy the module's claims schema; change them later through the store).
 *
 * @example
 * newAccountClaims: ({ subject }) => ({ sub: subject, roles: ['member'] })
 */
export type NewAccountClaims<Claims> = (account: { readonly subject: string; readonly email: string }) => Awaitable<Claims>;

/**
 * How the account lifecycle behaves, as the user writes it: shared by the `accounts` option of
 * `AuthModule.forRoot` (`AccountOptions`) and `AccountService`'s constructor
 * (`AccountServiceOptions`), which each add their own part beside it.
 *
 * @example
 * const lifecycle: AccountLifecycleOptions<Claims> = { links: 'https://app.acme.example', newAccountClaims: ({ subject }) => ({ sub: subject, roles: [] }) };
 */
export interface AccountLifecycleOptions<Claims> {
  /** A base URL (links become `<base>/verify-email?token=...`, `/reset-password`, `/confirm-email-change`) or one function per link. */
  readonly links: string | AccountLinks;
  readonly newAccountClaims: NewAccountClaims<Claims>;
  /** The subject of a new account; default `crypto.randomUUID()`. */
  readonly newSubject?: () => string;
  readonly passwordPolicy?: PasswordPolicyOptions;
  readonly tokenTtl?: AccountTokenTtl;
  /** Replaces some or all of the mail templates. */
  readonly templates?: Partial<AccountMailTemplates>;
  /** The name the default templates use; default the host name of the verification link. */
  readonly appName?: string;
  /**
   * Counts the mails that anyone can cause (verification, sign-up notice, reset, e-mail change
   * confirmation) per recipient (keyed by the address's SHA-256); one over the limit is not sent,
   * and no token is written for it, so nobody can flood an address through these requests. The
   * answer never changes. Default: at most 5 per address per hour in this process
   * (`InMemoryRateLimitCounter`); give a `PostgresRateLimitCounter` or `RedisRateLimitCounter`
   * to count across instances. Security notices (password changed, address changed) always go.
   */
  readonly mailLimit?: RateLimitCounter;
  /**
   * Where the mails are promised durably (`accountMailJobs(...).queue`): each request stores its
   * mail on the job engine before it answers (the same single write for a known address and an
   * unknown one), and a job issues the token and hands the mail to `mailer` later, on any
   * instance, so a crash after the answer loses no mail. With `joinsTransactions` and
   * `PostgresAccountStore`, sign-up's account and its mail commit together. Absent: mails are
   * made in this process after the answer (the default).
   */
  readonly mailQueue?: AccountMailQueue;
}

/**
 * @deprecated Since 0.2: `AccountLifecycleOptions` ("Settings" no longer names user options).
 * Removed in 0.3.
 *
 * @example
 * const lifecycle: AccountLifecycleOptions<Claims> = { links, newAccountClaims }; // was: AccountSettings<Claims>
 */
export type AccountSettings<Claims> = AccountLifecycleOptions<Claims>;

/**
 * Everything {@link AccountService} is built from: the lifecycle options and the dependencies.
 *
 * @example
 * new AccountService({ store, sessions: auth, passwordHasher, mailer, links: 'http://localhost:3000', newAccountClaims });
 */
export type AccountServiceOptions<Claims> = AccountLifecycleOptions<Claims> & AccountServiceDeps<Claims>;

/**
 * The dependencies {@link AccountService} is built with (the auth module wires them in).
 *
 * @example
 * const deps: AccountServiceDeps<Claims> = { store, sessions: auth, passwordHasher, mailer };
 */
export interface AccountServiceDeps<Claims> {
  readonly store: AccountStore<Claims>;
  readonly sessions: AccountSessions;
  readonly passwordHasher: PasswordHasher;
  readonly mailer: Mailer;
  readonly clock?: Clock;
  /** The module's claims schema: a new account's claims must pass it, so no account is created that could never sign in. */
  readonly claimsSchema?: ClaimsSchema<Claims>;
  /** Where failed background mail is reported; default `console.error`. */
  readonly logger?: Logger;
  /**
   * The module's sign-in throttle: the current-password checks of `changePassword` and
   * `requestEmailChange` count on the account's and the caller's sign-in budget, so a stolen
   * session cannot guess the password faster than sign-in could. `null` or absent: not throttled.
   */
  readonly passwordChecks?: Pick<SignInThrottle, 'attempt'> | null;
  /** Told each password change or reset, e-mail change and disabled account; the auth module passes its `SECURITY_EVENTS`. Default: nothing is recorded. */
  readonly securityEvents?: SecurityEventSink | undefined;
}

/**
 * What `changePassword` needs: the caller (the access token's `sub`), the session to keep (its
 * `sid`), the current password and the new one.
 *
 * @example
 * await accounts.changePassword({ subject: user.sub, sessionId: user.sid, currentPassword, newPassword });
 */
export interface PasswordChange {
  readonly subject: string;
  readonly sessionId: string;
  readonly currentPassword: string;
  readonly newPassword: string;
  /** The caller's address and agent: the current-password check is throttled as a sign-in is. */
  readonly context?: SignInContext | undefined;
}

/**
 * What `requestEmailChange` needs: the caller, the current password (re-authentication: a
 * stolen session alone cannot move the account to another mailbox) and the new address.
 *
 * @example
 * await accounts.requestEmailChange({ subject: user.sub, currentPassword, newEmail: 'ada@new.example' });
 */
export interface EmailChangeRequest {
  readonly subject: string;
  readonly currentPassword: string;
  readonly newEmail: string;
  /** The caller's address and agent: the current-password check is throttled as a sign-in is. */
  readonly context?: SignInContext | undefined;
}
