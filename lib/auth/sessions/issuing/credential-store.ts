import type { Awaitable } from '../../shared/awaitable.js';

/**
 * The account found for a sign-in identifier: whose it is, and the Argon2id PHC string to
 * verify the submitted password against.
 *
 * @example
 * const found: StoredCredential = { subject: 'u_42', passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$...' };
 */
export interface StoredCredential {
  readonly subject: string;
  readonly passwordHash: string;
}

/**
 * Where sign-in finds accounts and the claims put into their access tokens. Methods may be sync
 * or async.
 *
 * - `findByIdentifier`: the account for a sign-in identifier (an e-mail, a user name), or
 *   null/undefined when there is none. Compare identifiers in the form `normalizeIdentifier`
 *   gives (NFKC, trimmed, lower-cased): the sign-in throttle counts per account in that form, so
 *   a store that folds differently lets one account have several budgets.
 * - `loadClaims`: the full claims for a subject, which must satisfy the claims schema (a failure
 *   is a server fault, a plain Error). null/undefined means the account cannot sign in now (gone
 *   or disabled): sign-in and refresh then fail with 401 `Invalid credentials`.
 *
 * @example
 * class AccountsStore implements CredentialStore<Claims> {
 *   constructor(private readonly db: Db) {}
 *   findByIdentifier(email: string) { return this.db.accounts.findCredential(normalizeIdentifier(email)); }
 *   loadClaims(subject: string) { return this.db.accounts.claimsOfActive(subject); }
 * }
 */
export interface CredentialStore<Claims = unknown> {
  findByIdentifier(identifier: string): Awaitable<StoredCredential | null | undefined>;
  loadClaims(subject: string): Awaitable<Claims | null | undefined>;
}
