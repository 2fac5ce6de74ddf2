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

/**
 * A credential store that can also replace a password hash it handed out, so that a successful
 * sign-in stores a fresh hash when the stored one was made with other Argon2id parameters than
 * the configured ones (ASVS 5.0 11.2.2). `replacePasswordHash` is a compare-and-set: it replaces
 * the subject's hash with `to` only while it is still `from` (a password changed meanwhile keeps
 * its new hash) and answers whether it did. The in-memory and PostgreSQL credential and account
 * stores are ones. A capability of its own rather than an optional method, so `CredentialStore`
 * stays a complete contract.
 *
 * @example
 * if (replacesPasswordHashes(store)) await store.replacePasswordHash(subject, oldHash, await hasher.hash(password));
 */
export interface RehashingCredentialStore<Claims = unknown> extends CredentialStore<Claims> {
  /** Replaces the subject's hash with `to` only while it is still `from`; true when it did. */
  replacePasswordHash(subject: string, from: string, to: string): Awaitable<boolean>;
}

/**
 * Whether `store` is a {@link RehashingCredentialStore}.
 *
 * @example
 * replacesPasswordHashes(new InMemoryCredentialStore()); // true
 */
export function replacesPasswordHashes<Claims>(store: CredentialStore<Claims>): store is RehashingCredentialStore<Claims> {
  return typeof (store as Partial<RehashingCredentialStore<Claims>>).replacePasswordHash === 'function';
}
