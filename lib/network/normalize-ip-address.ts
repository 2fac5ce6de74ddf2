import { formatIpAddress } from './format-ip-address.js';
import { parseIpAddress } from './ip-address.js';

/**
 * Parses and rewrites an address in canonical text ({@link formatIpAddress}), or returns
 * `undefined` when it is not a strictly valid address ({@link parseIpAddress}). IPv4-mapped IPv6
 * comes back as IPv4, so the same client always yields the same string.
 *
 * @example
 * normalizeIpAddress('::FFFF:192.0.2.1');   // '192.0.2.1'
 * normalizeIpAddress('2001:db8:0:0::0:1');  // '2001:db8::1'
 * normalizeIpAddress('192.0.2.1 ');         // undefined
 */
export function normalizeIpAddress(text: string): string | undefined {
  const address = parseIpAddress(text);
  return address === undefined ? undefined : formatIpAddress(address);
}
