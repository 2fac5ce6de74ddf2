import { createToken, defineFactory, type Clock, type ProviderInput, type Token, type RequestContext } from '../../index.js';
import { AuthConfigError } from '../shared/auth-config-error.js';
import type { StoreClass } from '../shared/store-class.js';
import { tracedStore } from '../shared/auth-telemetry.js';
import type { CredentialStore } from '../sessions/issuing/index.js';
import type { BrowserSessions } from '../sessions/browser/index.js';
import type { AccountStore } from '../accounts/account-store.js';
import type { IdentityStore } from './identity-store.js';
import type { OutsideAccounts } from './outside-accounts.js';
import { InMemoryIdentityStore } from './in-memory-identity-store.js';
import { InMemorySignInFlowStore } from './in-memory-sign-in-flow-store.js';
import { checkOutsideProviders } from './outside-provider-options.js';
import { OutsideSignIn, type OutsideSessionIssuer } from './outside-sign-in.js';
import type { OutsideSignInOptions } from './outside-sign-in-options.js';
import type { SignInFlowStore } from './sign-in-flow-store.js';
import type { SecurityEventSink } from '../events/security-event.js';

/** The tokens the outside sign-in is wired with, owned by `defineAuthModule`. */
export interface OutsideSignInTokens {
  readonly outsideSignIn: Token<OutsideSignIn>;
  readonly authService: Token<OutsideSessionIssuer>;
  readonly credentialStore: Token<CredentialStore<unknown>>;
  readonly browserSessions: Token<BrowserSessions> | undefined;
  /** The module's account store, when `accounts` is configured: the default OutsideAccounts. */
  readonly accountStore: Token<AccountStore<unknown>> | undefined;
  readonly toProvider: <T>(token: Token<T>, store: StoreClass<T>) => ProviderInput;
  /** The module's recent-authentication rule for linking and unlinking (`recentAuthSeconds`). */
  readonly recentAuthentication: Token<(ctx: RequestContext) => void>;
  readonly securityEvents: Token<SecurityEventSink>;
}

/**
 * Checks `outsideSignIn` at `forRoot`: providers well formed, a base URL, a sane flow lifetime
 * and timeout, and `accounts.canUsePassword` given (the last-way rule needs it).
 *
 * @example
 * checkOutsideSignInOptions(options.outsideSignIn, options.issuing !== undefined);
 */
export function checkOutsideSignInOptions(options: OutsideSignInOptions | undefined, hasIssuing: boolean, hasAccounts: boolean): void {
  if (options === undefined) return;
  if (!hasIssuing) throw new AuthConfigError('outsideSignIn needs issuing: the sign-in ends in a session of the app');
  checkOutsideProviders(options.providers);
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch {
    throw new AuthConfigError('outsideSignIn.baseUrl must be the app\'s public origin, e.g. https://app.example');
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new AuthConfigError('outsideSignIn.baseUrl must be an http(s) URL');
  if (options.accounts === undefined) {
    if (!hasAccounts) throw new AuthConfigError('outsideSignIn.accounts is required unless the module has accounts');
  } else if (typeof options.accounts.canUsePassword !== 'function') {
    throw new AuthConfigError('outsideSignIn.accounts.canUsePassword is required (the last way to sign in cannot be removed)');
  }
  const ttl = options.flowTtlSeconds;
  if (ttl !== undefined && (!Number.isInteger(ttl) || ttl < 30 || ttl > 3600)) throw new AuthConfigError('outsideSignIn.flowTtlSeconds must be an integer from 30 to 3600');
  const timeout = options.timeoutMs;
  if (timeout !== undefined && (!Number.isInteger(timeout) || timeout < 1)) throw new AuthConfigError('outsideSignIn.timeoutMs must be a positive integer');
}

/**
 * The providers of the outside sign-in: its two stores (memory by default) and the service.
 *
 * @example
 * providers.push(...outsideSignInProviders(options.outsideSignIn, clock, tolerance, tokens));
 */
export function outsideSignInProviders(options: OutsideSignInOptions, clock: Clock, clockToleranceSeconds: number, tokens: OutsideSignInTokens): ProviderInput[] {
  const FLOWS = createToken<SignInFlowStore>('SignInFlowStore');
  const IDENTITIES = createToken<IdentityStore>('IdentityStore');
  const ACCOUNTS = createToken<OutsideAccounts>('OutsideAccounts');
  const build = (sessions: OutsideSessionIssuer, flows: SignInFlowStore, identities: IdentityStore, credentials: CredentialStore<unknown>, accounts: OutsideAccounts, recentAuthentication: (ctx: RequestContext) => void, events: SecurityEventSink, browser: BrowserSessions | undefined) =>
    new OutsideSignIn({
      recentAuthentication,
      events,
      options,
      accounts,
      flows: tracedStore(flows, 'SignInFlowStore'),
      identities: tracedStore(identities, 'IdentityStore'),
      sessions,
      browser,
      canSignIn: async (accountId) => (await credentials.loadClaims(accountId)) != null,
      clock,
      clockToleranceSeconds,
    });
  const browserToken = tokens.browserSessions;
  const given = options.accounts;
  const accountStore = tokens.accountStore;
  let accounts: ProviderInput;
  if (given !== undefined) accounts = { provide: ACCOUNTS, useValue: given };
  else if (accountStore !== undefined) accounts = defineFactory(ACCOUNTS, [accountStore], (store) => accountsFromStore(store));
  else throw new AuthConfigError('outsideSignIn.accounts is required unless the module has accounts');
  return [
    accounts,
    tokens.toProvider(FLOWS, options.flowStore ?? InMemorySignInFlowStore),
    tokens.toProvider(IDENTITIES, options.identityStore ?? InMemoryIdentityStore),
    browserToken === undefined
      ? defineFactory(tokens.outsideSignIn, [tokens.authService, FLOWS, IDENTITIES, tokens.credentialStore, ACCOUNTS, tokens.recentAuthentication, tokens.securityEvents], (sessions, flows, identities, credentials, found, recent, events) => build(sessions, flows, identities, credentials, found, recent, events, undefined))
      : defineFactory(tokens.outsideSignIn, [tokens.authService, FLOWS, IDENTITIES, tokens.credentialStore, ACCOUNTS, tokens.recentAuthentication, tokens.securityEvents, browserToken], (sessions, flows, identities, credentials, found, recent, events, browser) => build(sessions, flows, identities, credentials, found, recent, events, browser)),
  ];
}

/**
 * The linking rules' view of the module's account store: an account answers its verified e-mail
 * only when that address is verified and the account enabled (an unverified registration of
 * someone's address must not receive their provider identity); every stored account can use a
 * password (sign-up sets one, and a mailed reset can always set another). Creates nothing.
 *
 * @example
 * const accounts = accountsFromStore(store);
 */
export function accountsFromStore(store: AccountStore<unknown>): OutsideAccounts {
  return {
    async findByVerifiedEmail(email) {
      const account = await store.findByEmail(email);
      return account !== undefined && account.emailVerified && !account.disabled ? account.subject : undefined;
    },
    async canUsePassword(accountId) {
      return (await store.findBySubject(accountId)) !== undefined;
    },
  };
}
