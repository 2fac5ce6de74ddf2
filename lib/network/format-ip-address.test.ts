import { describe, expect, it } from 'vitest';
import { formatIpAddress } from './format-ip-address.js';
import { parseIpAddress } from './ip-address.js';
import { normalizeIpAddress } from './normalize-ip-address.js';

describe('formatIpAddress (RFC 5952)', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['0.0.0.0', '0.0.0.0'],
    ['::', '::'],
    ['::1', '::1'],
    ['1::', '1::'],
    ['2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'], // first of two equal runs
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'], // a single zero group stays
    ['2001:0:0:1:0:0:0:1', '2001:0:0:1::1'], // the longest run wins
    ['1:0:0:0:0:0:0:0', '1::'],
    ['0:0:0:0:0:0:0:1', '::1'],
    ['ABCD:EF01:2345:6789:ABCD:EF01:2345:6789', 'abcd:ef01:2345:6789:abcd:ef01:2345:6789'],
    ['::1.2.3.4', '::102:304'],
    ['::ffff:1.2.3.4', '1.2.3.4'],
    ['::ffff:0102:0304', '1.2.3.4'],
    ['fe80:0:0:0:0:0:0:0', 'fe80::'],
  ])('%s -> %s', (input, expected) => {
    const address = parseIpAddress(input);
    expect(address).toBeDefined();
    if (address !== undefined) expect(formatIpAddress(address)).toBe(expected);
    expect(normalizeIpAddress(input)).toBe(expected);
  });

  it('writes a hand-built IPv4-mapped IPv6 value in mixed notation', () => {
    const bytes = Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 10, 0, 0, 1);
    expect(formatIpAddress({ version: 6, bytes })).toBe('::ffff:10.0.0.1');
  });

  it('normalizeIpAddress refuses invalid text', () => {
    expect(normalizeIpAddress('1.2.3.04')).toBeUndefined();
    expect(normalizeIpAddress('fe80::1%eth0')).toBeUndefined();
    expect(normalizeIpAddress('')).toBeUndefined();
  });
});
