// The options of AuthModule.forRoot: each feature owns its options type (accounts/, browser/,
// throttle/, jwt/), and this file only composes them.
import type { Clock } from '../../index.js';
import type { HmacAlgorithm, TrustedIssuerOptions } from '../credentials/jwt/index.js';
import type { IssuingOptions } from '../sessions/issuing/issuing-options.js';
import type { ApiKeyOptions } from '../credentials/api-keys/api-key-options.js';
import type { SignInThrottleOptions } from '../throttle/sign-in-throttle-options.js';
import type { AccountOptions } from '../accounts/account-options.js';
import type { BrowserSessionOptions } from '../sessions/browser/browser-options.js';
import type { AuthRouteOptions } from '../routes/auth-route-options.js';
import type { SecondFactorOptions } from '../factors/second-factor-options.js';
import type { OutsideSignInOptions } from '../federation/outside-sign-in-options.js';


/**
 * Options of `AuthModule.forRoot`.
 *
 * @example
 * AuthModule.forRoot({ secret: process.env.AUTH_SECRET!, issuer: 'my-api', audience: 'my-api', protectAllRoutes: true });
 */
export interface AuthModuleOptions<Claims> {
  /** HMAC secret; at least 32 (HS256), 48 (HS384) or 64 (HS512) bytes of UTF-8. */
  readonly secret: string;
  readonly algorithm?: HmacAlgorithm;
  /** Expected `iss`, and signed into issued tokens. */
  readonly issuer?: string;
  /** Expected `aud` (any of them), and signed into issued tokens. */
  readonly audience?: string | readonly string[];
  /**
   * Identity providers (Auth0, Keycloak, Cognito, Entra, ...) whose access tokens are accepted
   * beside the app's own, each with its `issuer`, `audience`, keys (`jwksUrl`, `jwks` or
   * `publicKeys`) and `algorithms` (default RS256, ES256, EdDSA). A token goes to the verifier its
   * `iss` names; its claims pass the same claims schema as the app's own tokens.
   */
  readonly trustedIssuers?: readonly TrustedIssuerOptions[];
  /** Seconds of clock skew allowed on `exp`, `nbf` and `iat`, for every issuer; default 0. */
  readonly clockToleranceSeconds?: number;
  /**
   * When true, the app's own tokens must say `typ: at+jwt` (RFC 9068), as the ones it issues do.
   * By default tokens without `typ` or with `typ: JWT` are accepted too; any other `typ` never is.
   */
  readonly requireAccessTokenType?: boolean;
  /** When true, the guards and `AUTH_SERVICE` are visible in every module without importing the auth module. */
  readonly global?: boolean;
  /** When true, every route needs a credential unless marked `Public()`. */
  readonly protectAllRoutes?: boolean;
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
   * How long after signing in (seconds) a person may list or end sessions, change the password
   * or address (the mounted routes), or pass `RecentAuthGuard` (e.g. creating an API key).
   * Default 600. A sign-in's time is its session's start: refreshing does not renew it.
   */
  readonly recentAuthSeconds?: number;
  /**
   * Second factors (needs `issuing`): TOTP, recovery codes and passkeys through `SECOND_FACTORS`;
   * once a person enables one, every sign-in path asks for it (`beginSignIn`'s second step), and
   * `StepUpGuard` can require a recent one. See `SecondFactorOptions`.
   */
  readonly secondFactors?: SecondFactorOptions;
  /** The clock for expiry, rotation and caching; default the system clock. */
  readonly clock?: Clock;
}

export type { StoreClass } from '../shared/store-class.js';
export type { AccountOptions } from '../accounts/account-options.js';
export type { IssuingOptions } from '../sessions/issuing/issuing-options.js';
export type { ApiKeyOptions } from '../credentials/api-keys/api-key-options.js';
export type { AuthRouteOptions } from '../routes/auth-route-options.js';
