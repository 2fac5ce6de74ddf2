import { containsAny } from './allowed-cidrs.js';
import { parseCidr } from './cidr.js';
import type { CidrNetwork } from './cidr.js';
import { parseIpAddress } from './ip-address.js';

/**
 * Decides whether an address (canonical text, IPv4-mapped already read as IPv4) belongs to one of
 * the application's own proxies.
 *
 * @example
 * const isTrustedProxy: TrustedProxyMatcher = (address) => address === '10.0.0.5';
 */
export type TrustedProxyMatcher = (address: string) => boolean;

/**
 * Parses a list of proxy networks once. Throws {@link InvalidCidrError} or
 * {@link CidrHostBitsError} for a bad entry, at configuration time; a single proxy is written
 * with `/32` or `/128` (bare addresses are refused as everywhere else).
 *
 * @example
 * const networks = compileTrustedProxyNetworks(['10.0.0.0/8', 'fd00::/8']);
 */
export function compileTrustedProxyNetworks(cidrs: readonly string[]): readonly CidrNetwork[] {
  if (!Array.isArray(cidrs)) {
    throw new TypeError('isTrustedProxy must be a function or a list of networks');
  }
  return Object.freeze(cidrs.map((cidr) => parseCidr(cidr)));
}

/**
 * Builds an `isTrustedProxy` matcher from networks such as `['10.0.0.0/8']`. The list is parsed
 * once here (bad entries throw); the matcher refuses any text that is not a valid address.
 * IPv4-mapped IPv6 input is matched as IPv4.
 *
 * @example
 * const isTrustedProxy = createTrustedProxyMatcher(['10.0.0.0/8', '2001:db8:1::/48']);
 * isTrustedProxy('10.1.2.3');        // true
 * isTrustedProxy('::ffff:10.1.2.3'); // true
 * isTrustedProxy('192.0.2.1');       // false
 */
export function createTrustedProxyMatcher(cidrs: readonly string[]): TrustedProxyMatcher {
  const networks = compileTrustedProxyNetworks(cidrs);
  return (address: string): boolean => {
    const parsed = parseIpAddress(address);
    return parsed !== undefined && containsAny(networks, parsed);
  };
}
