import { describe, expect, it } from 'vitest';
import { addressPrefix, createThrottleKeys } from './throttle-keys.js';
import { normalizeIdentifier } from '../shared/normalize-identifier.js';

const SECRET = 'throttle-test-secret-of-at-least-32-bytes!';

describe('throttle keys', () => {
  it('counts IPv4 whole, IPv6 by /64, IPv4-mapped IPv6 as IPv4', () => {
    expect(addressPrefix('192.0.2.1')).toBe('192.0.2.1');
    expect(addressPrefix('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressPrefix('2001:DB8:1:2::')).toBe('2001:db8:1:2::/64');
    expect(addressPrefix('::ffff:192.0.2.1')).toBe('192.0.2.1');
  });

  it('counts text that is no address as that text, apart from every address', () => {
    expect(addressPrefix(' Unknown ')).toBe('text:unknown');
  });

  it('normalises an identifier (NFKC, trimmed, lower case)', () => {
    expect(normalizeIdentifier(' Ａlice@Example.COM ')).toBe('alice@example.com');
  });

  it('derives the same keys from the same secret (every instance agrees), other keys from another', () => {
    const one = createThrottleKeys(SECRET);
    const two = createThrottleKeys(SECRET);
    const other = createThrottleKeys(`${SECRET}x`);
    expect(two.account('alice@acme.test')).toBe(one.account('alice@acme.test'));
    expect(other.account('alice@acme.test')).not.toBe(one.account('alice@acme.test'));
    expect(one.account('alice@acme.test')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('keeps accounts and addresses apart even for the same text', () => {
    const keys = createThrottleKeys(SECRET);
    expect(keys.account('192.0.2.1')).not.toBe(keys.address('192.0.2.1'));
  });
});
