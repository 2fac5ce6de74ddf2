// The options of AuthModule.forRoot: each feature folder owns its options type (sessions/issuing,
// sessions/browser, credentials/jwt, credentials/api-keys, accounts, factors, federation, throttle,
// routes) and core's own switches (`AuthModuleScopeOptions`, module-scope-options.ts); this file only
// composes them.
import type { OwnTokenOptions, TokenAcceptanceOptions } from '../credentials/jwt/index.js';
import type { IssuingOptions } from '../sessions/issuing/issuing-options.js';
import type { ApiKeyOptions } from '../credentials/api-keys/api-key-options.js';
import type { SignInThrottleOptions } from '../throttle/sign-in-throttle-options.js';
import type { AccountOptions } from '../accounts/account-options.js';
import type { BrowserSessionOptions } from '../sessions/browser/browser-options.js';
import type { AuthRouteOptions } from '../routes/auth-route-options.js';
import type { SecondFactorOptions } from '../factors/second-factor-options.js';
import type { OutsideSignInOptions } from '../federation/outside-sign-in-options.js';
import type { AuthModuleScopeOptions } from './module-scope-options.js';


/**
 * Options of `AuthModule.forRoot`: the app's own tokens (`OwnTokenOptions`, from credentials/jwt;
 * `algorithm` defaults to HS256), which other tokens are accepted (`TokenAcceptanceOptions`), the
 * module's own switches (`AuthModuleScopeOptions`), and one key per feature, each typed by its
 * folder (`AuthFeatureOptions`).
 *
 * @example
 * AuthModule.forRoot({ secret: process.env.AUTH_SECRET!, issuer: 'my-api', audience: 'my-api', protectAllRoutes: true });
 */
export type AuthModuleOptions<Claims> = Omit<OwnTokenOptions, 'algorithm'> & Partial<Pick<OwnTokenOptions, 'algorithm'>> & TokenAcceptanceOptions & AuthModuleScopeOptions & AuthFeatureOptions<Claims>;

/**
 * The features of the auth module, one key each, typed by the options type its folder owns
 * (docs/auth.md, "Where a change goes"). Part of `AuthModuleOptions`.
 *
 * @example
 * const features: AuthFeatureOptions<Claims> = { issuing: { credentialStore: InMemoryCredentialStore, refreshTokenStore: InMemoryRefreshTokenStore }, routes: { json: true } };
 */
export interface AuthFeatureOptions<Claims> {
  readonly issuing?: IssuingOptions<Claims>;
  readonly apiKeys?: ApiKeyOptions;
  /**
   * Accounts for people (needs `issuing`): sign-up, e-mail verification, password reset and
   * change, e-mail change, through `ACCOUNT_SERVICE`. See `AccountOptions`.
   */
  readonly accounts?: AccountOptions<Claims>;
  /**
   * Browser sessions in cookies (needs `issuing`): the guards also accept the access-token
   * cookie, with the CSRF defence on unsafe requests, and `BROWSER_SESSIONS` answers the
   * browser's sign-in, refresh and sign-out with cookies. See `BrowserSessions`.
   */
  readonly browser?: BrowserSessionOptions;
  /**
   * Sign-in through outside OpenID Connect and OAuth 2.0 providers (needs `issuing`): the module
   * mounts `/auth/oidc/:provider` and its callback, and links identities to accounts by explicit
   * rules. See `OutsideSignInOptions`.
   */
  readonly outsideSignIn?: OutsideSignInOptions;
  /**
   * Throttled sign-in (with `issuing`; on by default, in memory): failed sign-ins counted per
   * account and client address, per address and per account answer 429 with `Retry-After`, before
   * the password is checked. `false` turns it off. Give `counters` (PostgreSQL or Redis) when
   * several instances serve sign-in. See `SignInThrottleOptions` and docs/sign-in-throttling.md.
   */
  readonly signInThrottle?: SignInThrottleOptions | false;
  /**
   * The routes the module mounts, by group (`json`, `browser`, `accounts`, `sessions`; each off
   * unless `true`), their `prefix` (default `/auth`) and throttles. See `AuthRouteOptions` and
   * docs/auth.md. Without it the module mounts none, and the app writes its own.
   */
  readonly routes?: AuthRouteOptions;
  /**
   * Second factors (needs `issuing`): TOTP, recovery codes and passkeys through `SECOND_FACTORS`;
   * once a person enables one, every sign-in path asks for it (`beginSignIn`'s second step), and
   * `StepUpGuard` can require a recent one. See `SecondFactorOptions`.
   */
  readonly secondFactors?: SecondFactorOptions;
}

export type { AuthModuleScopeOptions } from './module-scope-options.js';
export type { StoreClass } from '../shared/store-class.js';
export type { AccountOptions } from '../accounts/account-options.js';
export type { IssuingOptions } from '../sessions/issuing/issuing-options.js';
export type { ApiKeyOptions } from '../credentials/api-keys/api-key-options.js';
export type { AuthRouteOptions } from '../routes/auth-route-options.js';
