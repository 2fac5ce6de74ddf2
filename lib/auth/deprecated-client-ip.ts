import type { ClientAddressOptions, ClientAddressRule, Logger } from '../internal.js';
import type { AuthModuleOptions } from './auth-options.js';
import { AuthConfigError } from './jwt/auth-config-error.js';

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
