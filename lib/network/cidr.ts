import { CidrHostBitsError, InvalidCidrError } from './cidr-errors.js';
import { formatIpAddress } from './format-ip-address.js';
import { isIpv4MappedBytes, parseIpAddressAsWritten } from './ip-address.js';
import type { IpAddress } from './ip-address.js';

/**
 * A network: an address whose bits past `prefixLength` are all zero, and that prefix length.
 * Built by {@link parseCidr}, which guarantees the host bits are clear.
 *
 * @example
 * const lan: CidrNetwork = parseCidr('192.168.0.0/16');
 */
export interface CidrNetwork {
  readonly version: 4 | 6;
  readonly bytes: Uint8Array;
  readonly prefixLength: number;
}

// Longest address text (45) plus `/128`.
const MAX_CIDR_LENGTH = 49;

/**
 * Parses a network written `address/prefix`, strictly, or throws.
 *
 * Rules:
 * - The address follows {@link parseIpAddress} (strict dotted quad or IPv6, no zone id).
 * - The prefix is decimal with no sign, no leading zeros and no spaces: 0-32 for IPv4, 0-128 for
 *   IPv6.
 * - A bare address without `/prefix` is refused (the message shows the `/32` or `/128` form), so
 *   that a stored list has one spelling and nobody wonders whether `10.0.0.0` meant a /8.
 * - Host bits set (`10.1.2.3/24`) throws {@link CidrHostBitsError} naming the network probably
 *   meant (`10.1.2.0/24`); anything else malformed throws {@link InvalidCidrError}.
 * - An IPv4-mapped IPv6 network with prefix 96 or more (`::ffff:10.0.0.0/104`) becomes the IPv4
 *   network (`10.0.0.0/8`), because mapped addresses are read as IPv4 everywhere. Its host-bits
 *   suggestion is likewise given in IPv4 form.
 *
 * @example
 * parseCidr('10.0.0.0/8');       // { version: 4, bytes: [10, 0, 0, 0], prefixLength: 8 }
 * parseCidr('2001:db8::1/32');   // throws CidrHostBitsError, suggestion '2001:db8::/32'
 * parseCidr('10.0.0.1');         // throws InvalidCidrError
 */
export function parseCidr(text: string): CidrNetwork {
  if (typeof text !== 'string') {
    throw new InvalidCidrError(String(text), 'a network must be a string such as "10.0.0.0/8"');
  }
  if (text.length > MAX_CIDR_LENGTH) {
    throw new InvalidCidrError(text, 'too long to be a network');
  }
  const slash = text.indexOf('/');
  if (slash === -1) {
    const bare = parseIpAddressAsWritten(text);
    if (bare === undefined) {
      throw new InvalidCidrError(text, 'expected an address and a prefix length, such as "10.0.0.0/8"');
    }
    const single = `${formatIpAddress(bare)}/${bare.version === 4 ? 32 : 128}`;
    throw new InvalidCidrError(text, `a prefix length is required; write "${single}" for a single address`);
  }

  const written = parseIpAddressAsWritten(text.slice(0, slash));
  if (written === undefined) {
    throw new InvalidCidrError(text, 'the address part is not a valid IPv4 or IPv6 address');
  }
  const maxPrefix = written.version === 4 ? 32 : 128;
  const prefixLength = parsePrefixLength(text, slash + 1);
  if (prefixLength === undefined || prefixLength > maxPrefix) {
    throw new InvalidCidrError(
      text,
      `the prefix length must be a whole number from 0 to ${maxPrefix} without leading zeros`,
    );
  }

  let network: CidrNetwork = { version: written.version, bytes: written.bytes, prefixLength };
  if (network.version === 6 && prefixLength >= 96 && isIpv4MappedBytes(network.bytes)) {
    network = { version: 4, bytes: network.bytes.slice(12), prefixLength: prefixLength - 96 };
  }

  const masked = maskBytes(network.bytes, network.prefixLength);
  if (!bytesEqual(masked, network.bytes)) {
    const suggestion: CidrNetwork = { version: network.version, bytes: masked, prefixLength: network.prefixLength };
    throw new CidrHostBitsError(text, formatCidr(suggestion));
  }
  return Object.freeze(network);
}

/**
 * Writes a network in canonical form: canonical address ({@link formatIpAddress}), `/`, prefix.
 *
 * @example
 * formatCidr(parseCidr('2001:DB8:0::/32')); // '2001:db8::/32'
 */
export function formatCidr(network: CidrNetwork): string {
  return `${formatIpAddress(network)}/${network.prefixLength}`;
}

/**
 * True when `address` lies in `network`. Versions must agree: an IPv4 network contains no IPv6
 * address and an IPv6 network no IPv4 address. An IPv4-mapped IPv6 value (only possible when
 * built by hand) is compared as the IPv4 address it maps, so it is never inside an IPv6 network,
 * exactly like the parsed address. Allocation-free; runs per request.
 *
 * @example
 * cidrContains(parseCidr('10.0.0.0/8'), parseIpAddress('10.20.30.40')!);      // true
 * cidrContains(parseCidr('10.0.0.0/8'), parseIpAddress('::ffff:10.0.0.1')!);  // true
 * cidrContains(parseCidr('::/0'), parseIpAddress('10.0.0.1')!);                // false
 */
export function cidrContains(network: CidrNetwork, address: IpAddress): boolean {
  let version = address.version;
  let offset = 0;
  if (version === 6 && address.bytes[0] === 0 && isIpv4MappedBytes(address.bytes)) {
    version = 4;
    offset = 12;
  }
  if (network.version !== version) return false;
  const a = address.bytes;
  const n = network.bytes;
  const prefix = network.prefixLength;
  const fullBytes = prefix >> 3;
  for (let i = 0; i < fullBytes; i++) {
    if (a[offset + i] !== n[i]) return false;
  }
  const remainingBits = prefix & 7;
  if (remainingBits === 0) return true;
  const mask = (0xff << (8 - remainingBits)) & 0xff;
  return ((a[offset + fullBytes] ?? 0) & mask) === (n[fullBytes] ?? 0);
}

/** Reads `text[start..]` as a prefix length: 1-3 ASCII digits, no leading zero unless "0". */
function parsePrefixLength(text: string, start: number): number | undefined {
  const length = text.length - start;
  if (length < 1 || length > 3) return undefined;
  if (length > 1 && text.charCodeAt(start) === 48) return undefined;
  let value = 0;
  for (let i = start; i < text.length; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return undefined;
    value = value * 10 + digit;
  }
  return value;
}

function maskBytes(bytes: Uint8Array, prefixLength: number): Uint8Array {
  const out = new Uint8Array(bytes.length);
  const fullBytes = prefixLength >> 3;
  out.set(bytes.subarray(0, fullBytes));
  const remainingBits = prefixLength & 7;
  if (remainingBits !== 0) {
    out[fullBytes] = (bytes[fullBytes] ?? 0) & ((0xff << (8 - remainingBits)) & 0xff);
  }
  return out;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return false;
  }
  return true;
}
