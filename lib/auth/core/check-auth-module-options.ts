import { integerAtLeast } from '../../internal/primitives.js';
import { AuthConfigError, assertSecretLength, readTolerance, readTrustedIssuers } from '../credentials/jwt/index.js';
import { ownTokenNames } from '../credentials/jwt/own-token-names.js';
import { BrowserCookies } from '../sessions/browser/index.js';
import { checkSignInThrottleOptions } from '../throttle/index.js';
import { checkAuthRouteOptions } from '../routes/index.js';
import { checkSecondFactorOptions } from '../factors/check-second-factor-options.js';
import { checkOutsideSignInOptions } from '../federation/outside-sign-in-providers.js';
import { checkAccountOptions } from './account-providers.js';
import type { AuthModuleOptions } from './auth-options.js';

/**
 * Checks the options of `AuthModule.forRoot` as it is called, each feature by its folder's own
 * check, so that a misconfigured module fails `forRoot` (an `AuthConfigError`) rather than the
 * first request: the secret's length for the algorithm, the trusted issuers and the clock
 * tolerance, the sign-in throttle, accounts, `recentAuthSeconds`, the routes and what they need,
 * second factors, outside sign-in, and the browser sessions (which need `issuing`; their cookie
 * options are read now). The clock is checked where `forRoot` reads it.
 *
 * @example
 * checkAuthModuleOptions(options); // throws AuthConfigError
 */
export function checkAuthModuleOptions<Claims>(options: AuthModuleOptions<Claims>): void {
  assertSecretLength(options.secret, options.algorithm ?? 'HS256');
  readTrustedIssuers(options.trustedIssuers, ownTokenNames(options).issuer);
  readTolerance(options.clockToleranceSeconds);
  checkSignInThrottleOptions(options);
  checkAccountOptions(options);
  if (options.recentAuthSeconds !== undefined) integerAtLeast(options.recentAuthSeconds, 1, 'recentAuthSeconds');
  checkAuthRouteOptions(options.routes, { issuing: options.issuing !== undefined, browser: options.browser !== undefined, accounts: options.accounts !== undefined });
  checkSecondFactorOptions(options);
  checkOutsideSignInOptions(options.outsideSignIn, options.issuing !== undefined, options.accounts !== undefined);
  if (options.browser !== undefined) {
    if (options.issuing === undefined) throw new AuthConfigError('browser sessions need issuing: the cookies carry the tokens it issues');
    new BrowserCookies(options.browser); // Validates domain and sameSite now, not at the first request.
  }
}
