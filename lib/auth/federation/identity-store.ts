import type { Awaitable } from '../shared/awaitable.js';

/**
 * A provider identity linked to a local account: the provider's `issuer` and `subject` (together
 * the identity's key; a subject alone means nothing, ASVS 6.8.1) and the account it signs in to.
 *
 * @example
 * const identity: LinkedIdentity = { issuer: 'https://accounts.google.com', subject: '1088...', accountId: 'alice', provider: 'google', email: 'alice@example.com', linkedAt: new Date() };
 */
export interface LinkedIdentity {
  readonly issuer: string;
  readonly subject: string;
  readonly accountId: string;
  /** The provider's configured name (`google`), for showing and unlinking. */
  readonly provider: string;
  /** The provider's e-mail for the identity when it was linked, for display only; never a key. */
  readonly email?: string | undefined;
  readonly linkedAt: Date;
}

/**
 * Where provider identities are mapped to local accounts: `(issuer, subject) -> accountId`, the
 * only way an outside sign-in reaches an account. Nothing maps implicitly: an entry is written by
 * an explicit rule (a sign-in by the provider while signed in, a verified e-mail where the provider
 * allows it, or a new account) and read back on every later sign-in.
 *
 * - `link` stores the entry unless `(issuer, subject)` is linked already (to any account), and
 *   answers whether it did: one identity never opens two accounts.
 * - `unlink` removes the account's entry and answers whether there was one.
 *
 * @example
 * const identities: IdentityStore = new InMemoryIdentityStore();
 * await identities.link({ issuer, subject, accountId: 'alice', provider: 'oidc', linkedAt: new Date() });
 */
export interface IdentityStore {
  find(issuer: string, subject: string): Awaitable<LinkedIdentity | undefined>;
  link(identity: LinkedIdentity): Awaitable<boolean>;
  unlink(accountId: string, issuer: string, subject: string): Awaitable<boolean>;
  listByAccount(accountId: string): Awaitable<readonly LinkedIdentity[]>;
}
