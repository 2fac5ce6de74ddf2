import type { ClientAddressOptions, Logger } from '../../index.js';
import type { ClientAddressRule, CompiledOriginPolicy } from '../../internal/client-policies.js';
import type { AuthModuleOptions } from './auth-options.js';
import { AuthConfigError } from '../shared/auth-config-error.js';

// The auth options that configured what is now the app's (one trusted-proxy rule, one origin
// policy), read for one more minor version and refused beside the app's own.

/**
 * Keeps the app at one client-address rule while `apiKeys.clientIp` and `browser.clientIp`
 * (deprecated since 0.2) are still read: the boot fails when the app has its own rule
 * (`createApp`'s `clientAddress`) as well, or when the two aliases disagree, since either would
 * give one request two client addresses; otherwise a deprecation warning names the move.
 * Applying an alias on top of the app's rule would read `X-Forwarded-For` twice, so "both" is
 * refused rather than merged.
 *
 * @example
 * checkDeprecatedClientIp(options, rule, logger); // throws AuthConfigError, warns, or does nothing
 */
export function checkDeprecatedClientIp(options: Pick<AuthModuleOptions<unknown>, 'apiKeys' | 'browser'>, rule: ClientAddressRule, logger: Logger): void {
  const apiKeys = options.apiKeys?.clientIp;
  const browser = options.browser?.clientIp;
  const given = [apiKeys === undefined ? [] : ['apiKeys.clientIp'], browser === undefined ? [] : ['browser.clientIp']].flat();
  if (given.length === 0) return;
  const names = given.join(' and ');
  if (rule.configured) {
    throw new AuthConfigError(`${names} (deprecated) and createApp's clientAddress are two rules for one client address: remove ${names} and keep createApp(root, { clientAddress })`);
  }
  if (apiKeys !== undefined && browser !== undefined && !sameRule(apiKeys, browser)) {
    throw new AuthConfigError('apiKeys.clientIp and browser.clientIp (deprecated) differ: give the app one rule, createApp(root, { clientAddress }), and remove both');
  }
  logger.warn({ options: given }, `${names} is deprecated (removed in 0.3): give the same rule to createApp(root, { clientAddress })`);
}

function sameRule(a: ClientAddressOptions, b: ClientAddressOptions): boolean {
  if ((a.trustedProxyHops ?? 0) !== (b.trustedProxyHops ?? 0)) return false;
  const x = a.isTrustedProxy;
  const y = b.isTrustedProxy;
  if (x === y) return true;
  if (!Array.isArray(x) || !Array.isArray(y)) return false;
  return x.length === y.length && x.every((network, i) => network === y[i]);
}

/**
 * Keeps the app at one origin policy while `browser.allowedOrigins` (deprecated since 0.2) is
 * still read: beside `createApp`'s `origins` the boot fails (the CSRF check and CORS would answer
 * different origins); alone it still decides which other origins the CSRF check accepts, with a
 * deprecation warning.
 *
 * @example
 * checkDeprecatedAllowedOrigins(options, policy, logger); // throws AuthConfigError, warns, or does nothing
 */
export function checkDeprecatedAllowedOrigins(options: Pick<AuthModuleOptions<unknown>, 'browser'>, policy: CompiledOriginPolicy, logger: Logger): void {
  if (options.browser?.allowedOrigins === undefined) return;
  if (policy.configured) {
    throw new AuthConfigError("browser.allowedOrigins (deprecated) and createApp's origins are two origin policies: remove browser.allowedOrigins and keep createApp(root, { origins })");
  }
  logger.warn({ options: ['browser.allowedOrigins'] }, 'browser.allowedOrigins is deprecated (removed in 0.3): give the same list to createApp(root, { origins }), which CORS and WebSockets read too');
}
