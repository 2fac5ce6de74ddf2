import type { ModuleDefinition } from '../../index.js';
import type { StoreClass } from '../shared/store-class.js';
import type { IdentityStore } from './identity-store.js';
import type { OutsideAccounts } from './outside-accounts.js';
import type { OutsideProviderOptions } from './outside-provider-options.js';
import type { SignInFlowStore } from './sign-in-flow-store.js';

/**
 * Sign-in through outside providers (`AuthModule.forRoot({ outsideSignIn })`, needs `issuing`):
 * the module mounts `GET /auth/oidc/:provider` (the redirect), `GET|POST
 * /auth/oidc/:provider/callback`, and for signed-in people `POST /auth/oidc/:provider/link`,
 * `GET /auth/identities` and `DELETE /auth/identities/:provider`. The sign-in ends in a session
 * of the app's own: cookies with `browser`, else a JSON token pair. Linking and unlinking need a
 * recent authentication by the module's own rule (`recentAuthSeconds`, as `RecentAuthGuard`).
 *
 * @example
 * outsideSignIn: {
 *   providers: [{ name: 'oidc', issuer: process.env.OIDC_ISSUER!, clientId: process.env.OIDC_CLIENT_ID!, clientSecret: process.env.OIDC_CLIENT_SECRET }],
 *   baseUrl: 'https://app.acme.test',
 *   flowStore: PostgresSignInFlowStore, identityStore: PostgresIdentityStore, imports: [DbModule],
 *   accounts: { canUsePassword: () => true },
 * }
 */
export interface OutsideSignInOptions {
  readonly providers: readonly OutsideProviderOptions[];
  /** The app's public origin (`https://app.acme.test`): the redirect URI is `<baseUrl>/auth/oidc/<name>/callback`. */
  readonly baseUrl: string;
  /** Where flows wait for their callback; default in memory (one instance only). */
  readonly flowStore?: StoreClass<SignInFlowStore>;
  /** The `(issuer, subject) -> account` links; default in memory (one instance only). */
  readonly identityStore?: StoreClass<IdentityStore>;
  /** Modules the stores need to see. */
  readonly imports?: readonly ModuleDefinition[];
  /**
   * How linking rules reach the app's accounts. Omitted with the module's `accounts`: the account
   * store answers (a verified, enabled account by its verified e-mail; every stored account can
   * use a password, by a mailed reset if need be) and no account is created by a provider.
   */
  readonly accounts?: OutsideAccounts;
  /** Where the browser goes after signing in, unless the start named another path (`?returnTo=`); default `/`. */
  readonly defaultReturnTo?: string;
  /** Seconds a started flow waits for its callback; default 600. */
  readonly flowTtlSeconds?: number;
  /** Milliseconds each request to a provider may take; default 5000. */
  readonly timeoutMs?: number;
}
