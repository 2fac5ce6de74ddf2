import { ForbiddenException, InMemoryRateLimitCounter, isHttpException, systemClock, type Clock, type Logger, type RateLimitCounter } from '../../index.js';
import { checkedClock } from '../../internal/primitives.js';
import { invalidCredentials } from '../sessions/issuing/invalid-credentials.js';
import type { ClaimsSchema } from '../sessions/issuing/validate-claims.js';
import type { SignInContext } from '../sessions/issuing/sign-in-context.js';
import { defaultAccountMailTemplates, type AccountMailTemplates, type MailContent } from './mail/account-mail-templates.js';
import type { Mailer } from './mail/mailer.js';
import type { PasswordHasher } from '../credentials/password/index.js';
import { resolveAccountLinks, type AccountLinks } from './account-links.js';
import type { AccountStore, AccountTokenPurpose, ConsumedAccountToken } from './account-store.js';
import { generateOpaqueToken, hashOpaqueToken, isWellFormedOpaqueToken } from '../sessions/issuing/opaque-token.js';
import { invalidAccountLink } from './invalid-account-link.js';
import { MailOutbox } from './mail-outbox.js';
import { NO_SECURITY_EVENTS, type SecurityEventSink } from '../events/security-event.js';
import { AccountMails } from './account-mails.js';
import type { AccountMailIntent } from './account-mail-intent.js';
import { emailOrRefuse } from './normalize-email.js';
import { resolvePasswordPolicy, type PasswordPolicy } from './password-policy.js';
import type { AccountServiceOptions, AccountSessions, AccountTokenTtl, EmailChangeRequest, NewAccountClaims, PasswordChange } from './account-service-options.js';
import type { SignInThrottle } from '../throttle/sign-in-throttle.js';

const DEFAULT_TTL_SECONDS: Required<AccountTokenTtl> = { verifyEmail: 86_400, resetPassword: 3_600, changeEmail: 86_400 };

function readTtl(ttl: AccountTokenTtl | undefined): Required<AccountTokenTtl> {
  const resolved = { ...DEFAULT_TTL_SECONDS, ...ttl };
  for (const [name, seconds] of Object.entries(resolved)) {
    if (!Number.isInteger(seconds) || seconds <= 0) throw new RangeError(`accounts.tokenTtl.${name} must be a positive whole number of seconds`);
  }
  return resolved;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || 'your app';
  } catch {
    return 'your app';
  }
}

/**
 * The account lifecycle of people: sign-up, e-mail verification, password reset and change,
 * e-mail change. Resolved through `ACCOUNT_SERVICE` when `AuthModule.forRoot` has `accounts`.
 *
 * Promises it keeps:
 * - **No enumeration.** `signUp`, `requestPasswordReset` and `requestEmailVerification` answer the
 *   same, in the same time, whether or not the address has an account: sign-up hashes the
 *   password once and makes one `createAccount` call on both paths (a taken address gets a
 *   "someone tried to sign up" mail instead of a verification mail), and every token write and
 *   mail happens after the answer (see `settled`). Invalid input (a malformed address, a password
 *   the policy refuses) is a 400 that says nothing about accounts.
 * - **Mail tokens** are 256 random bits, stored as SHA-256, single-use (consumed atomically),
 *   expiring (see `AccountTokenTtl`), bound to one purpose, one account and the address they were
 *   sent to; a new one supersedes the older ones of its purpose. Every refused link is the same
 *   400 `This link is invalid or has expired`.
 * - **Sessions.** A reset ends every session of the account on every instance; a password change
 *   every session but the caller's.
 *
 * Mails go out after the answer, in this process: on a runtime that stops work when the response
 * is sent (Cloudflare Workers), hand `settled()` to `ctx.waitUntil`. For mail that must survive a
 * crash, give a `mailQueue` (`accountMailJobs`): each mail is then stored on the job engine before
 * the answer, and made and sent by a job.
 *
 * @example
 * await accounts.signUp('ada@example.com', 'correct horse battery');
 * await accounts.verifyEmail(tokenFromTheLink);
 */
export class AccountService<Claims = unknown> {
  readonly #store: AccountStore<Claims>;
  readonly #sessions: AccountSessions;
  readonly #hasher: PasswordHasher;
  readonly #mailer: Mailer;
  readonly #links: AccountLinks;
  readonly #newAccountClaims: NewAccountClaims<Claims>;
  readonly #newSubject: () => string;
  readonly #policy: PasswordPolicy;
  readonly #ttl: Required<AccountTokenTtl>;
  readonly #templates: AccountMailTemplates;
  readonly #appName: string;
  readonly #clock: Clock;
  readonly #outbox: MailOutbox;
  readonly #mails: AccountMails;
  readonly #mailLimit: RateLimitCounter;
  readonly #logger: Logger | undefined;
  readonly #claimsSchema: ClaimsSchema<Claims> | undefined;
  readonly #passwordChecks: Pick<SignInThrottle, 'attempt'> | null;
  readonly #events: SecurityEventSink;

  constructor(options: AccountServiceOptions<Claims>) {
    this.#store = options.store;
    this.#sessions = options.sessions;
    this.#hasher = options.passwordHasher;
    this.#mailer = options.mailer;
    this.#links = resolveAccountLinks(options.links);
    this.#newAccountClaims = options.newAccountClaims;
    this.#newSubject = options.newSubject ?? (() => crypto.randomUUID());
    this.#policy = resolvePasswordPolicy(options.passwordPolicy);
    this.#ttl = readTtl(options.tokenTtl);
    this.#templates = { ...defaultAccountMailTemplates, ...options.templates };
    this.#appName = options.appName ?? hostOf(this.#links.verifyEmail('token'));
    this.#clock = checkedClock(options.clock ?? systemClock);
    this.#outbox = new MailOutbox(options.logger);
    this.#mails = new AccountMails(this.#outbox, options.mailQueue, (intent) => this.#deliver(intent));
    this.#mailLimit = options.mailLimit ?? new InMemoryRateLimitCounter({ limit: 5, windowMs: 3_600_000, clock: this.#clock });
    this.#logger = options.logger;
    this.#claimsSchema = options.claimsSchema;
    this.#passwordChecks = options.passwordChecks ?? null;
    this.#events = options.securityEvents ?? NO_SECURITY_EVENTS;
  }

  /** The password policy in effect, defaults applied. */
  get passwordPolicy(): PasswordPolicy {
    return this.#policy;
  }

  /**
   * Creates an unverified account and mails a verification link; for an address that already
   * has an account, mails that account a "someone tried to sign up" notice with a reset link
   * instead. Resolves the same way in both cases.
   *
   * @throws BadRequestException for a malformed address or a password the policy refuses.
   * @example
   * await accounts.signUp(body.email, body.password); // answer 202 whatever happened
   */
  async signUp(email: string, password: string): Promise<void> {
    const address = emailOrRefuse(email);
    await this.#policy.enforce(password);
    // Hashed on both paths, before the store is asked: a taken address costs the same Argon2id.
    const passwordHash = await this.#hasher.hash(password);
    const subject = this.#newSubject();
    const claims = await this.#newAccountClaims({ subject, email: address });
    await this.#checkClaims(claims);
    const account = { subject, email: address, passwordHash, claims, emailVerified: false };
    await this.#mails.createAccount(this.#store, account, (created): AccountMailIntent => (created ? { kind: 'verifyEmail', subject, address } : { kind: 'signUpAttempt', address }));
  }

  /**
   * Mails a new verification link to an unverified account's address (superseding the previous
   * link); nothing for an unknown or verified address. Resolves the same way in every case.
   *
   * @throws BadRequestException for a malformed address.
   * @example
   * await accounts.requestEmailVerification(body.email);
   */
  async requestEmailVerification(email: string): Promise<void> {
    await this.#mails.promise({ kind: 'requestVerification', address: emailOrRefuse(email) });
  }

  /**
   * Marks the address of the link's account verified.
   *
   * @throws BadRequestException `This link is invalid or has expired` for a token that is unknown,
   * used, expired, of another purpose, or for an address the account no longer has.
   * @example
   * await accounts.verifyEmail(body.token);
   */
  async verifyEmail(token: string): Promise<void> {
    const consumed = await this.#consume(token, 'verify-email');
    if (!(await this.#store.markEmailVerified(consumed.subject, consumed.email))) throw invalidAccountLink();
  }

  /**
   * Mails a password-reset link (superseding earlier ones) when the address has an account;
   * nothing otherwise. Resolves the same way, in the same time, in both cases.
   *
   * @throws BadRequestException for a malformed address.
   * @example
   * await accounts.requestPasswordReset(body.email); // answer 202 whatever happened
   */
  async requestPasswordReset(email: string): Promise<void> {
    await this.#mails.promise({ kind: 'resetPassword', address: emailOrRefuse(email) });
  }

  /**
   * Sets a new password with a reset link's token, marks the address verified (the link proved
   * the mailbox), and ends every session of the account on every instance.
   *
   * @throws BadRequestException for a password the policy refuses (the token is kept) or a
   * refused link.
   * @example
   * await accounts.resetPassword(body.token, body.password);
   */
  async resetPassword(token: string, newPassword: string): Promise<void> {
    await this.#policy.enforce(newPassword);
    const consumed = await this.#consume(token, 'reset-password');
    const account = await this.#store.findBySubject(consumed.subject);
    if (account == null || account.email !== consumed.email) throw invalidAccountLink();
    // The new password and its notice commit together where the store and queue can (a crash between leaves neither).
    await this.#mails.setPasswordHash(this.#store, account.subject, await this.#hasher.hash(newPassword), { kind: 'passwordChanged', email: account.email });
    await this.#store.markEmailVerified(account.subject, account.email);
    await this.#store.deleteTokens(account.subject, 'reset-password');
    await this.#sessions.revokeAllSessions(account.subject);
    this.#events.record({ type: 'password.changed', subject: account.subject, via: 'reset' });
  }

  /**
   * Changes the password of a signed-in account after checking the current one, and ends every
   * other session of the account (the caller's, `sessionId`, stays). Pending reset links stop
   * working.
   *
   * @throws BadRequestException for a new password the policy refuses.
   * @throws ForbiddenException `Invalid credentials` for a wrong current password.
   * @throws UnauthorizedException `Invalid credentials` when the subject has no account.
   * @example
   * await accounts.changePassword({ subject: user.sub, sessionId: user.sid, currentPassword: body.currentPassword, newPassword: body.newPassword });
   */
  async changePassword(change: PasswordChange): Promise<void> {
    await this.#policy.enforce(change.newPassword);
    const account = await this.#reauthenticate(change.subject, change.currentPassword, change.context);
    await this.#mails.setPasswordHash(this.#store, account.subject, await this.#hasher.hash(change.newPassword), { kind: 'passwordChanged', email: account.email });
    await this.#store.deleteTokens(account.subject, 'reset-password');
    await this.#sessions.revokeOtherSessions(account.subject, change.sessionId);
    this.#events.record({ type: 'password.changed', subject: account.subject, via: 'change' });
  }

  /**
   * Mails a confirmation link to the new address, after checking the current password; the change
   * applies when the link is followed (`confirmEmailChange`). When the new address already has an
   * account, nothing is sent and the answer is the same.
   *
   * @throws BadRequestException for a malformed address.
   * @throws ForbiddenException `Invalid credentials` for a wrong current password.
   * @example
   * await accounts.requestEmailChange({ subject: user.sub, currentPassword: body.password, newEmail: body.email });
   */
  async requestEmailChange(request: EmailChangeRequest): Promise<void> {
    const address = emailOrRefuse(request.newEmail, 'newEmail');
    const account = await this.#reauthenticate(request.subject, request.currentPassword, request.context);
    if (address === account.email) return;
    await this.#mails.promise({ kind: 'confirmEmailChange', subject: account.subject, address, oldEmail: account.email });
  }

  /**
   * Moves the account to the address the link was sent to (now verified) and tells the old
   * address.
   *
   * @throws BadRequestException `This link is invalid or has expired` for a refused link, or when
   * the address was taken by another account in the meantime.
   * @example
   * await accounts.confirmEmailChange(body.token);
   */
  async confirmEmailChange(token: string): Promise<void> {
    const consumed = await this.#consume(token, 'change-email');
    const account = await this.#store.findBySubject(consumed.subject);
    if (account == null) throw invalidAccountLink();
    // The move and the notice to the old address commit together where the store and queue can.
    const notice: AccountMailIntent = { kind: 'emailChanged', oldEmail: account.email, newEmail: consumed.email };
    if (!(await this.#mails.changeEmail(this.#store, account.subject, account.email, consumed.email, notice))) throw invalidAccountLink();
    this.#events.record({ type: 'email.changed', subject: account.subject });
  }

  /**
   * Disables an account and ends every one of its sessions on every instance (ASVS 5.0 7.4.2): the
   * store stops loading its claims (no sign-in, no refresh), its refresh tokens are revoked, and
   * its access tokens are refused before they expire, here at once and elsewhere as the app's
   * PubSub delivers it (an instance that cannot hear the bus reads it from the refresh-token store).
   * Disabled first, so a sign-in racing this cannot start a session the revocation misses.
   *
   * @example
   * await accounts.disableAccount(params.subject); // an administrator's action
   */
  async disableAccount(subject: string): Promise<void> {
    await this.#store.disable(subject);
    this.#events.record({ type: 'account.disabled', subject });
    await this.#sessions.revokeAllSessions(subject);
  }

  /**
   * Resolves once every mail started so far has been sent (or has failed and been logged). For
   * tests and for a graceful shutdown; requests never wait for it.
   *
   * @example
   * await accounts.signUp(email, password);
   * await accounts.settled(); // the verification mail has been handed to the mailer
   */
  async settled(): Promise<void> {
    await this.#outbox.settled();
  }

  /**
   * `app.close()` waits for the mails still being sent (the module lifecycle calls it), so a
   * graceful shutdown does not drop a verification or reset mail already promised.
   *
   * @example
   * await app.close(); // returns once pending account mails are sent or have failed
   */
  async onModuleDestroy(): Promise<void> {
    await this.#outbox.settled();
  }

  /** A server fault (500), before anything is stored, when new claims would fail at every sign-in. */
  async #checkClaims(claims: Claims): Promise<void> {
    if (this.#claimsSchema === undefined) return;
    const result = await this.#claimsSchema.safeParseAsync(claims);
    if (!result.success) {
      const codes = [...new Set(result.error.issues.map((issue) => issue.code))].join(', ');
      throw new Error(`accounts.newAccountClaims answered claims the claims schema refuses (${codes}); fix newAccountClaims or the schema`);
    }
  }

  /** Whether one more mail of the kinds anyone can cause may go to `address` (see `mailLimit`). */
  async #mayMail(address: string, kind: string): Promise<boolean> {
    if ((await this.#mailLimit.hit(hashOpaqueToken(address))) === 0) return true;
    this.#logger?.warn({ mail: kind }, `accounts: a ${kind} mail was not sent: over the per-address limit`);
    return false;
  }

  async #reauthenticate(subject: string, password: string, context: SignInContext | undefined) {
    const account = await this.#store.findBySubject(subject);
    if (account == null) throw invalidCredentials();
    const verify = async () => {
      // A 401 inside the throttle is what it counts as a failed sign-in; the caller is told 403
      // (the session is fine, the re-authentication failed), below.
      if (typeof password !== 'string' || !(await this.#hasher.verify(password, account.passwordHash))) throw invalidCredentials();
    };
    try {
      // Counted under the account's address, as a sign-in with it is: one budget for both ways of guessing.
      await (this.#passwordChecks === null ? verify() : this.#passwordChecks.attempt(account.email, context, verify));
    } catch (error) {
      if (isHttpException(error) && error.status === 401) throw new ForbiddenException('Invalid credentials');
      throw error;
    }
    return account;
  }

  async #consume(token: string, purpose: AccountTokenPurpose): Promise<ConsumedAccountToken> {
    if (!isWellFormedOpaqueToken(token)) throw invalidAccountLink();
    const consumed = await this.#store.consumeToken(hashOpaqueToken(token), purpose);
    if (consumed == null || consumed.expiresAt.getTime() <= this.#clock.now()) throw invalidAccountLink();
    return consumed;
  }

  /** Stores a new token (superseding older ones of the purpose) and answers it for the link. */
  async #issue(subject: string, purpose: AccountTokenPurpose, email: string): Promise<string> {
    const token = generateOpaqueToken();
    const ttlSeconds = purpose === 'verify-email' ? this.#ttl.verifyEmail : purpose === 'reset-password' ? this.#ttl.resetPassword : this.#ttl.changeEmail;
    await this.#store.issueToken({ tokenHash: hashOpaqueToken(token), subject, purpose, email, expiresAt: new Date(this.#clock.now() + ttlSeconds * 1000) });
    return token;
  }

  async #sendVerification(subject: string, email: string): Promise<void> {
    const link = this.#links.verifyEmail(await this.#issue(subject, 'verify-email', email));
    await this.#send(email, this.#templates.verifyEmail({ email, appName: this.#appName, link }));
  }

  async #sendSignUpAttempt(email: string): Promise<void> {
    const account = await this.#store.findByEmail(email);
    if (account == null) return;
    const resetLink = this.#links.resetPassword(await this.#issue(account.subject, 'reset-password', account.email));
    await this.#send(account.email, this.#templates.signUpAttempt({ email: account.email, appName: this.#appName, resetLink }));
  }

  /** Makes and sends one promised mail: after the answer in this process, or in the mail job (see `mailQueue`). */
  async #deliver(intent: AccountMailIntent): Promise<void> {
    switch (intent.kind) {
      case 'verifyEmail':
        if (await this.#mayMail(intent.address, intent.kind)) await this.#sendVerification(intent.subject, intent.address);
        return;
      case 'signUpAttempt':
        if (await this.#mayMail(intent.address, intent.kind)) await this.#sendSignUpAttempt(intent.address);
        return;
      case 'requestVerification': {
        const account = await this.#store.findByEmail(intent.address);
        if (account != null && !account.emailVerified && (await this.#mayMail(account.email, 'verifyEmail'))) await this.#sendVerification(account.subject, account.email);
        return;
      }
      case 'resetPassword': {
        const account = await this.#store.findByEmail(intent.address);
        if (account == null || !(await this.#mayMail(account.email, 'resetPassword'))) return;
        const link = this.#links.resetPassword(await this.#issue(account.subject, 'reset-password', account.email));
        await this.#send(account.email, this.#templates.resetPassword({ email: account.email, appName: this.#appName, link }));
        return;
      }
      case 'confirmEmailChange': {
        if ((await this.#store.findByEmail(intent.address)) != null || !(await this.#mayMail(intent.address, 'confirmEmailChange'))) return;
        const link = this.#links.confirmEmailChange(await this.#issue(intent.subject, 'change-email', intent.address));
        await this.#send(intent.address, this.#templates.confirmEmailChange({ email: intent.address, appName: this.#appName, link, oldEmail: intent.oldEmail }));
        return;
      }
      case 'emailChanged':
        await this.#send(intent.oldEmail, this.#templates.emailChanged({ email: intent.oldEmail, appName: this.#appName, newEmail: intent.newEmail }));
        return;
      case 'passwordChanged':
        await this.#send(intent.email, this.#templates.passwordChanged({ email: intent.email, appName: this.#appName }));
    }
  }

  async #send(to: string, content: MailContent): Promise<void> {
    await this.#mailer.send({ to, subject: content.subject, text: content.text, html: content.html });
  }
}
