/**
 * An IP address as its version and network-order bytes (4 for IPv4, 16 for IPv6).
 *
 * Values returned by {@link parseIpAddress} are never IPv4-mapped IPv6: `::ffff:a.b.c.d` is
 * returned as the IPv4 address, so one client is one value whichever socket family it came in on.
 * Treat `bytes` as read-only; typed arrays cannot be frozen.
 *
 * @example
 * const address: IpAddress = { version: 4, bytes: Uint8Array.of(192, 0, 2, 1) };
 */
export interface IpAddress {
  readonly version: 4 | 6;
  readonly bytes: Uint8Array;
}

// The longest valid text is `ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255`; anything longer is
// refused before scanning, so a hostile header cannot make the parser walk a long string.
const MAX_TEXT_LENGTH = 45;

const CHAR_0 = 48;
const CHAR_9 = 57;
const CHAR_DOT = 46;
const CHAR_COLON = 58;

/**
 * Parses an IP address written in its strict textual form, or returns `undefined`.
 *
 * Accepted:
 * - IPv4 as a dotted quad: exactly four decimal parts 0-255, no leading zeros (`010` is refused
 *   because other parsers read it as octal), no octal/hex/short forms.
 * - IPv6 per RFC 4291 §2.2: eight groups of 1-4 hex digits (any case), `::` at most once and
 *   standing for at least one zero group, optionally ending in a dotted-quad IPv4 tail.
 *
 * Refused: whitespace anywhere, zone ids (`fe80::1%eth0`: a zone only means something on the host
 * that wrote it and no network list can name it, so it is refused rather than silently dropped),
 * brackets, ports, prefixes.
 *
 * IPv4-mapped IPv6 (`::ffff:a.b.c.d`, also written `::ffff:0a01:0203`) is returned as IPv4.
 * The deprecated IPv4-compatible form is NOT mapped: `::1.2.3.4` is the IPv6 address `::102:304`,
 * as RFC 4291 defines it (ipaddr.js, for one, reads it as `::ffff:1.2.3.4`).
 *
 * Returns `undefined` rather than throwing because it runs on every request for untrusted input.
 *
 * @example
 * parseIpAddress('::ffff:10.1.2.3'); // { version: 4, bytes: [10, 1, 2, 3] }
 * parseIpAddress('2001:DB8::1');     // { version: 6, bytes: [0x20, 0x01, 0x0d, 0xb8, 0, ..., 1] }
 * parseIpAddress('010.0.0.1');       // undefined
 */
export function parseIpAddress(text: string): IpAddress | undefined {
  const address = parseIpAddressAsWritten(text);
  if (address === undefined || address.version === 4 || !isIpv4MappedBytes(address.bytes)) return address;
  return { version: 4, bytes: address.bytes.slice(12) };
}

/**
 * Like {@link parseIpAddress} but keeps an IPv4-mapped address as the IPv6 value it was written
 * as. Internal: network parsing needs it because a prefix on `::ffff:…` counts 128 bits.
 *
 * @example
 * parseIpAddressAsWritten('::ffff:10.0.0.1')?.version; // 6
 */
export function parseIpAddressAsWritten(text: string): IpAddress | undefined {
  if (typeof text !== 'string' || text.length === 0 || text.length > MAX_TEXT_LENGTH) {
    return undefined;
  }
  if (text.indexOf(':') === -1) {
    const bytes = new Uint8Array(4);
    return parseDottedQuad(text, 0, text.length, bytes, 0) ? { version: 4, bytes } : undefined;
  }
  const bytes = parseIpv6Bytes(text);
  return bytes === undefined ? undefined : { version: 6, bytes };
}

/**
 * True when 16 bytes are an IPv4-mapped IPv6 address (`::ffff:0:0/96`, RFC 4291 §2.5.5.2).
 *
 * @example
 * isIpv4MappedBytes(Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 1, 2, 3, 4)); // true
 */
export function isIpv4MappedBytes(bytes: Uint8Array): boolean {
  if (bytes.length !== 16) return false;
  for (let i = 0; i < 10; i++) {
    if (bytes[i] !== 0) return false;
  }
  return bytes[10] === 0xff && bytes[11] === 0xff;
}

/** Writes a strict dotted quad found in `text[start, end)` into `out[offset..offset+3]`. */
function parseDottedQuad(text: string, start: number, end: number, out: Uint8Array, offset: number): boolean {
  let part = 0;
  let i = start;
  while (part < 4) {
    const partStart = i;
    let value = 0;
    while (i < end) {
      const c = text.charCodeAt(i);
      if (c < CHAR_0 || c > CHAR_9) break;
      value = value * 10 + (c - CHAR_0);
      i++;
      if (i - partStart > 3) return false;
    }
    const length = i - partStart;
    if (length === 0 || value > 255) return false;
    if (length > 1 && text.charCodeAt(partStart) === CHAR_0) return false;
    out[offset + part] = value;
    part++;
    if (part < 4) {
      if (i >= end || text.charCodeAt(i) !== CHAR_DOT) return false;
      i++;
    }
  }
  return i === end;
}

function hexValue(c: number): number {
  if (c >= CHAR_0 && c <= CHAR_9) return c - CHAR_0;
  const lower = c | 0x20; // ASCII letters only differ in this bit between cases
  if (lower >= 97 && lower <= 102) return lower - 87;
  return -1;
}

/** Parses IPv6 text into 16 bytes without normalising mapped addresses. */
function parseIpv6Bytes(text: string): Uint8Array | undefined {
  const n = text.length;
  const out = new Uint8Array(16);
  let groups = 0;
  let gapAt = -1; // group index where `::` stands, -1 when absent
  let i = 0;

  if (text.charCodeAt(0) === CHAR_COLON) {
    if (text.charCodeAt(1) !== CHAR_COLON) return undefined;
    gapAt = 0;
    i = 2;
  }

  while (i < n) {
    if (groups === 8) return undefined;
    const groupStart = i;
    let value = 0;
    while (i < n) {
      const h = hexValue(text.charCodeAt(i));
      if (h < 0) break;
      value = value * 16 + h;
      i++;
    }
    if (i < n && text.charCodeAt(i) === CHAR_DOT) {
      // An IPv4 tail is two groups and must end the address.
      if (groups > 6) return undefined;
      if (!parseDottedQuad(text, groupStart, n, out, groups * 2)) return undefined;
      groups += 2;
      i = n;
      break;
    }
    const length = i - groupStart;
    if (length === 0 || length > 4) return undefined;
    out[groups * 2] = value >> 8;
    out[groups * 2 + 1] = value & 0xff;
    groups++;
    if (i === n) break;
    if (text.charCodeAt(i) !== CHAR_COLON) return undefined;
    i++;
    if (i < n && text.charCodeAt(i) === CHAR_COLON) {
      if (gapAt !== -1) return undefined;
      gapAt = groups;
      i++;
    } else if (i === n) {
      return undefined; // a single trailing colon
    }
  }

  if (gapAt === -1) return groups === 8 ? out : undefined;
  // `::` must stand for at least one group.
  if (groups > 7) return undefined;
  const tailBytes = (groups - gapAt) * 2;
  if (tailBytes > 0) {
    out.copyWithin(16 - tailBytes, gapAt * 2, groups * 2);
    out.fill(0, gapAt * 2, 16 - tailBytes);
  }
  return out;
}
