import type { ModuleInput } from '../../index.js';
import type { Mailer } from './mail/mailer.js';
import type { StoreClass } from '../shared/store-class.js';
import type { AccountLifecycleOptions } from './account-service-options.js';
import type { AccountStore } from './account-store.js';

/**
 * The `accounts` option of `AuthModule.forRoot`: sign-up, e-mail verification, password reset
 * and change, e-mail change, resolved through `ACCOUNT_SERVICE`. Needs `issuing`. The account
 * store is also a credential store: when `issuing.credentialStore` is omitted, sign-in reads the
 * account store; when both are given they must see the same accounts (e.g.
 * `PostgresCredentialStore` and `PostgresAccountStore` both read `tessera_accounts`).
 *
 * - `store`: `InMemoryAccountStore`, `PostgresAccountStore` (via `defineProvider`), or your own.
 * - `links` (required): a base URL or one function per link; see `AccountLinks`.
 * - `newAccountClaims` (required): the claims of a new account's access tokens.
 * - `mailer`: default `loggingMailer(LOGGER)`, which only logs (development; the module warns
 *   once at boot when it is used). Production: `smtpMailer(process.env.SMTP_URL)` or your own.
 * - `requireVerifiedEmail` (default true): an account whose address is not verified cannot sign
 *   in or refresh, and is refused with the same 401 `Invalid credentials` as a wrong password
 *   (after the same password check, so no timing tells it apart). Why by default: until the
 *   mailbox is proven, anyone can create an account in someone else's name and use it; the
 *   owner of the address recovers it with a reset. Accounts created outside sign-up (seeded,
 *   `PostgresCredentialStore.addAccount`) count as verified.
 * - `passwordPolicy`, `tokenTtl`, `templates`, `appName`, `newSubject`, `mailLimit`: see
 *   `AccountLifecycleOptions`, the part shared with `AccountService`'s constructor.
 *
 * @example
 * accounts: {
 *   store: defineProvider(PostgresAccountStore, [DB]), imports: [DbModule],
 *   links: 'https://app.acme.example', mailer: smtpMailer(process.env.SMTP_URL!, { from: 'Acme <no-reply@acme.example>' }),
 *   newAccountClaims: ({ subject }) => ({ sub: subject, roles: ['member'] }),
 * }
 */
export type AccountOptions<Claims> = AccountLifecycleOptions<Claims> & AccountModuleParts<Claims>;

/**
 * What only the `accounts` option of `AuthModule.forRoot` says (beside the lifecycle): where the
 * store comes from, the mailer, and whether sign-in needs a verified address.
 *
 * @example
 * const parts: AccountModuleParts<Claims> = { store: InMemoryAccountStore, requireVerifiedEmail: false };
 */
export interface AccountModuleParts<Claims> {
  readonly store: StoreClass<AccountStore<Claims>>;
  readonly imports?: readonly ModuleInput[];
  readonly mailer?: Mailer;
  readonly requireVerifiedEmail?: boolean;
}
