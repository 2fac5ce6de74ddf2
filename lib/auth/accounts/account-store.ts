import type { Awaitable } from '../shared/awaitable.js';
import type { CredentialStore } from '../sessions/issuing/credential-store.js';
import type { AccountTransaction } from './account-mail-intent.js';

/**
 * What a mail token is good for. A token is consumed only for its own purpose: a verification
 * token cannot reset a password.
 *
 * @example
 * const purpose: AccountTokenPurpose = 'reset-password';
 */
export type AccountTokenPurpose = 'verify-email' | 'reset-password' | 'change-email';

/**
 * An account as an {@link AccountStore} keeps it. `email` is the sign-in identifier, stored
 * normalised (see `normalizeEmail`).
 *
 * @example
 * const account: AccountRecord<Claims> = { subject: 'u_1', email: 'ada@example.com', passwordHash, emailVerified: false, disabled: false, claims };
 */
export interface AccountRecord<Claims> {
  readonly subject: string;
  readonly email: string;
  readonly passwordHash: string;
  readonly emailVerified: boolean;
  readonly disabled: boolean;
  readonly claims: Claims;
}

/**
 * An account to create (sign-up).
 *
 * @example
 * await store.createAccount({ subject: 'u_1', email: 'ada@example.com', passwordHash, claims, emailVerified: false });
 */
export interface NewAccount<Claims> {
  readonly subject: string;
  readonly email: string;
  readonly passwordHash: string;
  readonly claims: Claims;
  readonly emailVerified: boolean;
}

/**
 * A mail token to store: only the SHA-256 of the token (see `hashOpaqueToken`), never the token.
 * `email` is the address the token was sent to (for `change-email`, the new address), so a link
 * cannot act on an address the account no longer has.
 *
 * @example
 * await store.issueToken({ tokenHash, subject: 'u_1', purpose: 'verify-email', email: 'ada@example.com', expiresAt });
 */
export interface NewAccountToken {
  readonly tokenHash: string;
  readonly subject: string;
  readonly purpose: AccountTokenPurpose;
  readonly email: string;
  readonly expiresAt: Date;
}

/**
 * A token that {@link AccountStore.consumeToken} took out of the store. Expiry is the caller's
 * check (the service reads its clock), so the store needs no clock.
 *
 * @example
 * const consumed = await store.consumeToken(hash, 'verify-email');
 * if (consumed === undefined || consumed.expiresAt.getTime() <= clock.now()) throw invalidAccountLink();
 */
export interface ConsumedAccountToken {
  readonly subject: string;
  readonly email: string;
  readonly expiresAt: Date;
}

/**
 * Where the account lifecycle (sign-up, verification, reset, password and email change) keeps
 * accounts and mail tokens. It is a {@link CredentialStore} too, so the accounts it creates sign in
 * through the ordinary sign-in path: `findByIdentifier` looks up the normalised e-mail address,
 * `loadClaims` answers the claims of an account that is not disabled (whether an unverified
 * account may sign in is the auth module's decision, not the store's). Methods may be sync or
 * async. `InMemoryAccountStore` and `PostgresAccountStore` implement it; the shared contract is
 * test/store-contracts/account-store-contract.ts.
 *
 * - `createAccount`: false, changing nothing, when the e-mail or subject is taken (never throws
 *   for that: sign-up of a taken address must look the same as a new one).
 * - `markEmailVerified` / `changeEmail`: only while the account's address is still `email` /
 *   `from`; false otherwise (or when `to` is taken).
 * - `issueToken`: stores the token and deletes the account's other tokens of that purpose (a new
 *   reset request supersedes the older ones).
 * - `consumeToken`: atomically removes and answers the token when its hash and purpose match;
 *   two concurrent calls never both get it.
 * - `disable`: from then on `loadClaims` answers nothing for the subject (it cannot sign in or
 *   refresh); the account is still found, so its password is still verified.
 *
 * @example
 * class MyAccounts implements AccountStore<Claims> { ... }
 * AuthModule.forRoot({ secret, issuing: { refreshTokenStore }, accounts: { store: MyAccounts, links: 'https://app.example.com', newAccountClaims } });
 */
export interface AccountStore<Claims = unknown> extends CredentialStore<Claims> {
  createAccount(account: NewAccount<Claims>): Awaitable<boolean>;
  findByEmail(email: string): Awaitable<AccountRecord<Claims> | undefined>;
  findBySubject(subject: string): Awaitable<AccountRecord<Claims> | undefined>;
  markEmailVerified(subject: string, email: string): Awaitable<boolean>;
  setPasswordHash(subject: string, passwordHash: string): Awaitable<void>;
  changeEmail(subject: string, from: string, to: string): Awaitable<boolean>;
  issueToken(token: NewAccountToken): Awaitable<void>;
  consumeToken(tokenHash: string, purpose: AccountTokenPurpose): Awaitable<ConsumedAccountToken | undefined>;
  deleteTokens(subject: string, purpose: AccountTokenPurpose): Awaitable<void>;
  disable(subject: string): Awaitable<void>;
}

/**
 * An account store that can also run more work in the database transaction of each write that
 * sends a mail: the write, then `then`, committed only when both succeed and rolled back,
 * changing nothing, when `then` rejects. The account service uses it to store each such write's
 * mail with it (see `AccountMailQueue`): a crash between the two leaves neither.
 *
 * - `createAccountInTransaction`: `createAccount`, `then` told whether it created (sign-up's
 *   verification or "someone tried to sign up" mail);
 * - `setPasswordHashInTransaction`: `setPasswordHash` (throws, changing nothing, for an unknown
 *   subject), then `then` (a reset's or change's "your password was changed" mail);
 * - `changeEmailInTransaction`: `changeEmail`, `then` told whether it changed (the notice to the
 *   old address).
 *
 * `PostgresAccountStore` is one. A capability of its own rather than optional methods, so
 * `AccountStore` stays a complete contract; the shared contract is
 * test/store-contracts/account-store-contract.ts.
 *
 * @example
 * if (createsInTransaction(store)) await store.setPasswordHashInTransaction(subject, hash, (tx) => queue.queue(mail, tx));
 */
export interface TransactionalAccountStore<Claims = unknown> extends AccountStore<Claims> {
  /** `createAccount`, then `then` told whether it created, in one transaction. */
  createAccountInTransaction(account: NewAccount<Claims>, then: (created: boolean, transaction: AccountTransaction) => Promise<void>): Promise<boolean>;
  /** `setPasswordHash`, then `then`, in one transaction; throws for an unknown subject. */
  setPasswordHashInTransaction(subject: string, passwordHash: string, then: (transaction: AccountTransaction) => Promise<void>): Promise<void>;
  /** `changeEmail`, then `then` told whether it changed, in one transaction. */
  changeEmailInTransaction(subject: string, from: string, to: string, then: (changed: boolean, transaction: AccountTransaction) => Promise<void>): Promise<boolean>;
}

/**
 * Whether `store` is a {@link TransactionalAccountStore} (has all three of its operations).
 *
 * @example
 * createsInTransaction(new InMemoryAccountStore()); // false
 */
export function createsInTransaction<Claims>(store: AccountStore<Claims>): store is TransactionalAccountStore<Claims> {
  const candidate = store as Partial<TransactionalAccountStore<Claims>>;
  return typeof candidate.createAccountInTransaction === 'function' && typeof candidate.setPasswordHashInTransaction === 'function' && typeof candidate.changeEmailInTransaction === 'function';
}
