import { ENV, LOGGER, createToken, defineFactory, type ConfigSource, type Logger, type ProviderInput, type Token, type Clock } from '../../index.js';
import type { AccountOptions, AuthModuleOptions, IssuingOptions, StoreClass } from './auth-options.js';
import type { CredentialStore } from '../sessions/issuing/credential-store.js';
import type { ClaimsSchema } from '../sessions/issuing/validate-claims.js';
import { AuthConfigError } from '../credentials/jwt/index.js';
import { mailerWithoutTransport } from '../accounts/mail/mailer-without-transport.js';
import { getDefaultPasswordHasher } from '../credentials/password/index.js';
import { resolveAccountLinks } from '../accounts/account-links.js';
import { AccountService } from '../accounts/account-service.js';
import type { AccountSessions } from '../accounts/account-service-options.js';
import type { SignInThrottle } from '../throttle/sign-in-throttle.js';
import type { AccountStore } from '../accounts/account-store.js';
import { resolvePasswordPolicy } from '../accounts/password-policy.js';
import { verifiedCredentialStore } from '../accounts/verified-credential-store.js';
import type { SecurityEventSink } from '../events/security-event.js';

/**
 * Checks the `accounts` option at `forRoot` (a bad policy or a missing `issuing` fails there,
 * not at the first sign-up) and that sign-in has a credential store.
 *
 * @example
 * checkAccountOptions(options); // throws AuthConfigError
 */
export function checkAccountOptions<Claims>(options: Pick<AuthModuleOptions<Claims>, 'issuing' | 'accounts'>): void {
  const accounts = options.accounts;
  if (accounts === undefined) {
    if (options.issuing !== undefined && options.issuing.credentialStore === undefined) throw new AuthConfigError('issuing.credentialStore is required unless accounts is given');
    return;
  }
  if (options.issuing === undefined) throw new AuthConfigError('accounts need issuing: sign-in, reset and password change work on the sessions it issues');
  if (typeof accounts.newAccountClaims !== 'function') throw new AuthConfigError('accounts.newAccountClaims must be a function answering the claims of a new account');
  resolvePasswordPolicy(accounts.passwordPolicy);
  resolveAccountLinks(accounts.links).verifyEmail('token');
}

/**
 * The tokens and helpers of `defineAuthModule` that the account providers use.
 *
 * @example
 * const tokens: AccountProviderTokens<Claims> = { credentialStore: CREDENTIAL_STORE, accountStore: ACCOUNT_STORE, accountService: ACCOUNT_SERVICE, authService: AUTH_SERVICE, signInThrottle: SIGN_IN_THROTTLE, securityEvents: SECURITY_EVENTS, toProvider };
 */
export interface AccountProviderTokens<Claims> {
  readonly credentialStore: Token<CredentialStore<Claims>>;
  readonly accountStore: Token<AccountStore<Claims>>;
  readonly accountService: Token<AccountService<Claims>>;
  readonly authService: Token<AccountSessions>;
  readonly toProvider: <T>(token: Token<T>, store: StoreClass<T>) => ProviderInput;
  /** The module's claims schema, which new accounts' claims must pass. */
  readonly claimsSchema?: ClaimsSchema<Claims>;
  /** The module's sign-in throttle (null when off): current-password checks count on it too. */
  readonly signInThrottle: Token<SignInThrottle | null>;
  /** The module's security events: password and e-mail changes, disabled accounts. */
  readonly securityEvents: Token<SecurityEventSink>;
}

/**
 * The providers of sign-in's credential store and, with `accounts`, of the account store and
 * `ACCOUNT_SERVICE`: sign-in reads `issuing.credentialStore`, or the account store when it is
 * omitted, behind `verifiedCredentialStore` when `requireVerifiedEmail` holds.
 *
 * @example
 * providers.push(...accountProviders(options.accounts, issuing, clock, { credentialStore: CREDENTIAL_STORE, ... }));
 */
export function accountProviders<Claims>(accounts: AccountOptions<Claims> | undefined, issuing: IssuingOptions<Claims>, clock: Clock, tokens: AccountProviderTokens<Claims>): ProviderInput[] {
  const { credentialStore, accountStore, accountService, authService, toProvider } = tokens;
  if (accounts === undefined) {
    if (issuing.credentialStore === undefined) throw new AuthConfigError('issuing.credentialStore is required unless accounts is given');
    return [toProvider(credentialStore, issuing.credentialStore)];
  }
  const providers: ProviderInput[] = [toProvider(accountStore, accounts.store)];
  const verified = accounts.requireVerifiedEmail ?? true;
  const given = issuing.credentialStore;
  if (given === undefined) {
    providers.push(defineFactory(credentialStore, [accountStore], (store) => (verified ? verifiedCredentialStore<Claims>(store, store) : store)));
  } else {
    const plain = createToken<CredentialStore<Claims>>('ConfiguredCredentialStore');
    providers.push(toProvider(plain, given), defineFactory(credentialStore, [plain, accountStore], (credentials, store) => (verified ? verifiedCredentialStore<Claims>(credentials, store) : credentials)));
  }
  providers.push(
    defineFactory(accountService, [accountStore, authService, LOGGER, tokens.signInThrottle, tokens.securityEvents, ENV], async (store: AccountStore<Claims>, sessions: AccountSessions, logger: Logger, passwordChecks: SignInThrottle | null, securityEvents: SecurityEventSink, env: ConfigSource) => {
      // Without a mailer: links in the log in development only; production refuses to boot.
      const mailer = accounts.mailer ?? mailerWithoutTransport(env, logger);
      return new AccountService<Claims>({
        ...accounts,
        store,
        sessions,
        passwordHasher: issuing.passwordHasher ?? (await getDefaultPasswordHasher()),
        mailer,
        clock,
        logger,
        passwordChecks,
        securityEvents,
        ...(tokens.claimsSchema === undefined ? {} : { claimsSchema: tokens.claimsSchema }),
      });
    }),
  );
  return providers;
}
