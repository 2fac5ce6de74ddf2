import { hkdf } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { parseIpAddress } from '../../internal/client-policies.js';
import { normalizeIdentifier } from '../shared/normalize-identifier.js';

const encoder = new TextEncoder();
// 128 bits of the HMAC: no collision between real keys, and short rows and Redis keys.
const KEY_HEX_LENGTH = 32;

/**
 * The counter keys of sign-in throttling: keyed hashes (HMAC-SHA-256 under a key derived from the
 * auth module's secret with HKDF, so every instance derives the same keys), never the identifier
 * or the address as sent. A table or Redis dump of the counts tells neither who was tried nor
 * from where, and cannot be reversed by hashing a list of addresses without the secret.
 *
 * @example
 * const keys = createThrottleKeys(options.secret);
 * keys.account('Alice@Example.com') === keys.account(' alice@example.com'); // true
 * keys.address('2001:db8::1') === keys.address('2001:db8::2'); // true: one /64
 */
export interface ThrottleKeys {
  /**
   * The key of an account: the identifier in the form accounts and stores compare it in
   * (`normalizeIdentifier`: NFKC, trimmed, lower-cased), so one budget is one account, and changing
   * case, width or surrounding spaces does not buy a fresh one.
   */
  account(identifier: string): string;
  /** The key of a client address: IPv4 as is, IPv6 by its /64 prefix (one subscriber's network). */
  address(clientAddress: string): string;
}

/**
 * Keys derived from `secret` (the auth module's HMAC secret; see {@link ThrottleKeys}).
 *
 * @example
 * const keys = createThrottleKeys(process.env.AUTH_SECRET!);
 */
export function createThrottleKeys(secret: string): ThrottleKeys {
  const key = hkdf(sha256, encoder.encode(secret), undefined, encoder.encode('tessera-http sign-in throttle keys v1'), 32);
  const keyed = (label: string, text: string) => bytesToHex(hmac(sha256, key, encoder.encode(`${label}\u0000${text}`))).slice(0, KEY_HEX_LENGTH);
  return {
    account: (identifier) => keyed('account', normalizeIdentifier(identifier)),
    address: (clientAddress) => keyed('address', addressPrefix(clientAddress)),
  };
}


/**
 * The part of a client address that names one client: an IPv4 address whole; an IPv6 address by
 * its /64 (a subscriber gets at least a /64 and picks any address in it, so counting single IPv6
 * addresses would give one client 2^64 budgets). IPv4-mapped IPv6 is IPv4. Text that is no
 * address (a proxy's `unknown`) counts as that text.
 *
 * @example
 * addressPrefix('2001:db8:1:2:3:4:5:6'); // '2001:db8:1:2::/64'
 * addressPrefix('::ffff:192.0.2.1');     // '192.0.2.1'
 */
export function addressPrefix(clientAddress: string): string {
  const address = parseIpAddress(clientAddress.trim());
  if (address === undefined) return `text:${clientAddress.trim().toLowerCase()}`;
  if (address.version === 4) return address.bytes.join('.');
  const groups: string[] = [];
  for (let i = 0; i < 8; i += 2) groups.push((((address.bytes[i] ?? 0) << 8) | (address.bytes[i + 1] ?? 0)).toString(16));
  return `${groups.join(':')}::/64`;
}
