import { describe, expect, it } from 'vitest';
import { cidrContains, formatCidr, parseCidr } from './cidr.js';
import { CidrHostBitsError, InvalidCidrError } from './cidr-errors.js';
import { parseIpAddress } from './ip-address.js';
import type { IpAddress } from './ip-address.js';

function ip(text: string): IpAddress {
  const address = parseIpAddress(text);
  if (address === undefined) throw new Error(`test address ${text} is invalid`);
  return address;
}

function hostBitsError(text: string): CidrHostBitsError {
  try {
    parseCidr(text);
  } catch (error) {
    if (error instanceof CidrHostBitsError) return error;
    throw error;
  }
  throw new Error(`${text} was accepted`);
}

describe('parseCidr', () => {
  it.each([
    ['0.0.0.0/0', '0.0.0.0/0', 4, 0],
    ['10.0.0.0/8', '10.0.0.0/8', 4, 8],
    ['192.0.2.1/32', '192.0.2.1/32', 4, 32],
    ['::/0', '::/0', 6, 0],
    ['2001:DB8::/32', '2001:db8::/32', 6, 32],
    ['2001:db8::1/128', '2001:db8::1/128', 6, 128],
    ['fe80::/10', 'fe80::/10', 6, 10],
    ['10.0.0.128/25', '10.0.0.128/25', 4, 25],
    // Mapped networks are read as IPv4, like mapped addresses.
    ['::ffff:10.0.0.0/104', '10.0.0.0/8', 4, 8],
    ['::ffff:0:0/96', '0.0.0.0/0', 4, 0],
    ['::ffff:1.2.3.4/128', '1.2.3.4/32', 4, 32],
  ])('accepts %s as %s', (text, canonical, version, prefixLength) => {
    const network = parseCidr(text);
    expect(formatCidr(network)).toBe(canonical);
    expect(network.version).toBe(version);
    expect(network.prefixLength).toBe(prefixLength);
  });

  it.each([
    '',
    '/',
    '10.0.0.0/',
    '/8',
    '10.0.0.0/33',
    '10.0.0.0/-1',
    '10.0.0.0/+8',
    '10.0.0.0/08',
    '10.0.0.0/00',
    '10.0.0.0/8 ',
    ' 10.0.0.0/8',
    '10.0.0.0 /8',
    '10.0.0.0/ 8',
    '10.0.0.0/8/8',
    '10.0.0.0/0x8',
    '10.0.0.0/8.0',
    '010.0.0.0/8',
    '10.0.0/8',
    '::/129',
    '::/1000',
    '::/0128',
    'fe80::%eth0/64',
    'fe80::/64%eth0',
    'example.com/24',
    '10.0.0.0',
    '::1',
    `${'1'.repeat(60)}/8`,
  ])('refuses %j with InvalidCidrError', (text) => {
    expect(() => parseCidr(text)).toThrow(InvalidCidrError);
    try {
      parseCidr(text);
    } catch (error) {
      expect(error).not.toBeInstanceOf(CidrHostBitsError);
    }
  });

  it('refuses a bare address and shows the single-address form', () => {
    expect(() => parseCidr('10.0.0.1')).toThrow(/"10\.0\.0\.1\/32"/);
    expect(() => parseCidr('2001:DB8::1')).toThrow(/"2001:db8::1\/128"/);
  });

  it('refuses a non-string', () => {
    expect(() => parseCidr(42 as unknown as string)).toThrow(InvalidCidrError);
  });

  it.each([
    ['10.1.2.3/24', '10.1.2.0/24'],
    ['10.1.2.3/8', '10.0.0.0/8'],
    ['10.0.0.1/0', '0.0.0.0/0'],
    ['192.168.1.1/31', '192.168.1.0/31'],
    ['2001:db8::1/32', '2001:db8::/32'],
    ['2001:db8:abcd::/33', '2001:db8:8000::/33'],
    ['::1/0', '::/0'],
    ['fe80::1/127', 'fe80::/127'],
    ['::ffff:10.1.2.3/104', '10.0.0.0/8'],
    ['::ffff:10.1.2.3/88', '::ff00:0:0/88'],
  ])('%s has host bits set; suggests %s', (text, suggestion) => {
    const error = hostBitsError(text);
    expect(error).toBeInstanceOf(InvalidCidrError);
    expect(error.suggestion).toBe(suggestion);
    expect(error.input).toBe(text);
    expect(error.message).toContain(`"${suggestion}"`);
    expect(error.name).toBe('CidrHostBitsError');
  });

  it('keeps echoed input short in messages', () => {
    const long = `10.0.0.0/8${'x'.repeat(30)}`;
    try {
      parseCidr(long);
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message.length).toBeLessThan(200);
    }
  });
});

describe('cidrContains', () => {
  it.each([
    ['10.0.0.0/8', '10.255.255.255', true],
    ['10.0.0.0/8', '11.0.0.0', false],
    ['10.0.0.0/8', '9.255.255.255', false],
    ['10.0.0.128/25', '10.0.0.128', true],
    ['10.0.0.128/25', '10.0.0.127', false],
    ['0.0.0.0/0', '255.255.255.255', true],
    ['0.0.0.0/0', '::1', false],
    ['192.0.2.1/32', '192.0.2.1', true],
    ['192.0.2.1/32', '192.0.2.0', false],
    ['::/0', '2001:db8::1', true],
    ['::/0', '10.0.0.1', false],
    ['::/0', '::ffff:10.0.0.1', false], // mapped is IPv4
    ['2001:db8::/32', '2001:db8:ffff::1', true],
    ['2001:db8::/32', '2001:db9::', false],
    ['2001:db8::1/128', '2001:db8::1', true],
    ['2001:db8::1/128', '2001:db8::2', false],
    ['fe80::/10', 'febf::1', true],
    ['fe80::/10', 'fec0::1', false],
    ['10.0.0.0/8', '::ffff:10.1.2.3', true],
    ['10.0.0.0/8', '::ffff:0a01:0203', true],
    ['10.0.0.0/8', '::10.1.2.3', false], // IPv4-compatible is not mapped
    ['::ffff:10.0.0.0/104', '10.9.9.9', true],
  ])('%s contains %s: %s', (network, address, expected) => {
    expect(cidrContains(parseCidr(network), ip(address))).toBe(expected);
  });

  it('matches a hand-built mapped IPv6 value against an IPv4 network', () => {
    const bytes = Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 10, 0, 0, 1);
    expect(cidrContains(parseCidr('10.0.0.0/8'), { version: 6, bytes })).toBe(true);
    expect(cidrContains(parseCidr('11.0.0.0/8'), { version: 6, bytes })).toBe(false);
    expect(cidrContains(parseCidr('::/0'), { version: 6, bytes })).toBe(false);
  });
});
