import { isIpv4MappedBytes } from './ip-address.js';
import type { IpAddress } from './ip-address.js';

/**
 * Writes an address in canonical text: IPv4 as a dotted quad, IPv6 per RFC 5952 (lowercase,
 * no leading zeros, the longest run of two or more zero groups compressed to `::`, the first
 * such run on a tie). Canonical text lets addresses be compared, logged and stored as strings.
 *
 * An IPv6 value holding an IPv4-mapped address (only possible when built by hand; the parser
 * returns those as IPv4) is written `::ffff:a.b.c.d` as RFC 5952 §5 recommends.
 *
 * @example
 * formatIpAddress(parseIpAddress('2001:0DB8:0:0:0:0:0:0001')!); // '2001:db8::1'
 * formatIpAddress(parseIpAddress('::ffff:10.0.0.1')!);         // '10.0.0.1'
 */
export function formatIpAddress(address: IpAddress): string {
  const b = address.bytes;
  if (address.version === 4) {
    return `${b[0]}.${b[1]}.${b[2]}.${b[3]}`;
  }
  if (isIpv4MappedBytes(b)) {
    return `::ffff:${b[12]}.${b[13]}.${b[14]}.${b[15]}`;
  }

  let bestStart = -1;
  let bestLength = 1; // RFC 5952 §4.2.2: a single zero group is never compressed
  let runStart = -1;
  for (let g = 0; g <= 8; g++) {
    const isZero = g < 8 && b[g * 2] === 0 && b[g * 2 + 1] === 0;
    if (isZero) {
      if (runStart === -1) runStart = g;
    } else if (runStart !== -1) {
      if (g - runStart > bestLength) {
        bestStart = runStart;
        bestLength = g - runStart;
      }
      runStart = -1;
    }
  }

  let text = '';
  for (let g = 0; g < 8; g++) {
    if (g === bestStart) {
      text += g === 0 ? '::' : ':';
      g += bestLength - 1;
      continue;
    }
    const group = ((b[g * 2] ?? 0) << 8) | (b[g * 2 + 1] ?? 0);
    text += group.toString(16);
    if (g < 7) text += ':';
  }
  return text;
}
