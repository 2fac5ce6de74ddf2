import type { StoredCredential } from '../sessions/issuing/credential-store.js';
import { normalizeIdentifier } from '../shared/normalize-identifier.js';
import type { AccountRecord, AccountStore, AccountTokenPurpose, ConsumedAccountToken, NewAccount, NewAccountToken } from './account-store.js';

interface AccountRow<Claims> {
  email: string;
  passwordHash: string;
  emailVerified: boolean;
  disabled: boolean;
  claims: Claims;
}

interface TokenRow {
  readonly subject: string;
  readonly purpose: AccountTokenPurpose;
  readonly email: string;
  readonly expiresAt: Date;
}


/**
 * An {@link AccountStore} held in memory, for tests, demos and a single instance. Every call is
 * synchronous inside, so `consumeToken` is atomic by construction. Claims are copied in and out.
 * Use it as the auth module's credential store too (the default when `issuing.credentialStore`
 * is omitted), so accounts created by sign-up sign in.
 *
 * @example
 * AuthModule.forRoot({ secret, issuing: { refreshTokenStore: InMemoryRefreshTokenStore }, accounts: { store: InMemoryAccountStore, links: 'http://localhost:3000', newAccountClaims } });
 */
export class InMemoryAccountStore<Claims = unknown> implements AccountStore<Claims> {
  readonly #bySubject = new Map<string, AccountRow<Claims>>();
  readonly #subjectByEmail = new Map<string, string>();
  readonly #tokens = new Map<string, TokenRow>();

  /** Creates the account unless its e-mail (normalised) or subject is taken; true when created. */
  async createAccount(account: NewAccount<Claims>): Promise<boolean> {
    const email = normalizeIdentifier(account.email);
    if (this.#subjectByEmail.has(email) || this.#bySubject.has(account.subject)) return false;
    this.#subjectByEmail.set(email, account.subject);
    this.#bySubject.set(account.subject, {
      email,
      passwordHash: account.passwordHash,
      emailVerified: account.emailVerified,
      disabled: false,
      claims: structuredClone(account.claims),
    });
    return true;
  }

  /** The account with this e-mail (in the form of `normalizeIdentifier`), or undefined. */
  async findByEmail(email: string): Promise<AccountRecord<Claims> | undefined> {
    const subject = this.#subjectByEmail.get(normalizeIdentifier(email));
    return subject === undefined ? undefined : this.findBySubject(subject);
  }

  /** The account of a subject, or undefined. */
  async findBySubject(subject: string): Promise<AccountRecord<Claims> | undefined> {
    const row = this.#bySubject.get(subject);
    if (row === undefined) return undefined;
    return { subject, email: row.email, passwordHash: row.passwordHash, emailVerified: row.emailVerified, disabled: row.disabled, claims: structuredClone(row.claims) };
  }

  /** CredentialStore: the account for a sign-in identifier (its e-mail), disabled or not. */
  async findByIdentifier(identifier: string): Promise<StoredCredential | undefined> {
    const account = await this.findByEmail(identifier);
    return account === undefined ? undefined : { subject: account.subject, passwordHash: account.passwordHash };
  }

  /**
   * CredentialStore: a copy of the claims; null for an unknown or disabled subject. Typed as the
   * interface is, so that `typeof InMemoryAccountStore` infers its claims from the module's.
   */
  async loadClaims(subject: string): Promise<Claims | null | undefined> {
    const row = this.#bySubject.get(subject);
    return row === undefined || row.disabled ? null : structuredClone(row.claims);
  }

  /** Marks the address verified while the account still has it; true when it did. */
  async markEmailVerified(subject: string, email: string): Promise<boolean> {
    const row = this.#bySubject.get(subject);
    if (row === undefined || row.email !== normalizeIdentifier(email)) return false;
    row.emailVerified = true;
    return true;
  }

  /** Replaces the password hash. Throws for an unknown subject. */
  async setPasswordHash(subject: string, passwordHash: string): Promise<void> {
    this.#row(subject).passwordHash = passwordHash;
  }

  /** Replaces the password hash with `to` while it is still `from`; true when it did (a rehash at sign-in). */
  async replacePasswordHash(subject: string, from: string, to: string): Promise<boolean> {
    const row = this.#bySubject.get(subject);
    if (row === undefined || row.passwordHash !== from) return false;
    row.passwordHash = to;
    return true;
  }

  /** Moves the account from `from` to `to` (verified); false when `from` is no longer its address or `to` is taken. */
  async changeEmail(subject: string, from: string, to: string): Promise<boolean> {
    const row = this.#bySubject.get(subject);
    const [old, next] = [normalizeIdentifier(from), normalizeIdentifier(to)];
    if (row === undefined || row.email !== old || this.#subjectByEmail.has(next)) return false;
    this.#subjectByEmail.delete(old);
    this.#subjectByEmail.set(next, subject);
    row.email = next;
    row.emailVerified = true;
    return true;
  }

  /** Stores the token, deleting the subject's other tokens of the same purpose. */
  async issueToken(token: NewAccountToken): Promise<void> {
    this.#deleteTokens(token.subject, token.purpose);
    this.#tokens.set(token.tokenHash, { subject: token.subject, purpose: token.purpose, email: normalizeIdentifier(token.email), expiresAt: new Date(token.expiresAt.getTime()) });
  }

  /** Removes and answers the token when hash and purpose match; a token of another purpose stays. */
  async consumeToken(tokenHash: string, purpose: AccountTokenPurpose): Promise<ConsumedAccountToken | undefined> {
    const row = this.#tokens.get(tokenHash);
    if (row === undefined || row.purpose !== purpose) return undefined;
    this.#tokens.delete(tokenHash);
    return { subject: row.subject, email: row.email, expiresAt: new Date(row.expiresAt.getTime()) };
  }

  /** Deletes every token of the subject for that purpose. */
  async deleteTokens(subject: string, purpose: AccountTokenPurpose): Promise<void> {
    this.#deleteTokens(subject, purpose);
  }

  /**
   * Disables an account: it is still found (its password still verified) but cannot sign in.
   *
   * @example
   * store.disable('u_1');
   */
  disable(subject: string): void {
    this.#row(subject).disabled = true;
  }

  /**
   * Re-enables a disabled account.
   *
   * @example
   * store.enable('u_1');
   */
  enable(subject: string): void {
    this.#row(subject).disabled = false;
  }

  #deleteTokens(subject: string, purpose: AccountTokenPurpose): void {
    for (const [hash, row] of this.#tokens) if (row.subject === subject && row.purpose === purpose) this.#tokens.delete(hash);
  }

  #row(subject: string): AccountRow<Claims> {
    const row = this.#bySubject.get(subject);
    if (row === undefined) throw new Error('No account with this subject');
    return row;
  }
}
