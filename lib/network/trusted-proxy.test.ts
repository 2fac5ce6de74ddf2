import { describe, expect, it } from 'vitest';
import { CidrHostBitsError, InvalidCidrError } from './cidr-errors.js';
import { createTrustedProxyMatcher } from './trusted-proxy.js';

describe('createTrustedProxyMatcher', () => {
  it('matches addresses inside the networks, mapped IPv4 included', () => {
    const isTrustedProxy = createTrustedProxyMatcher(['10.0.0.0/8', '2001:db8:1::/48', '192.0.2.7/32']);
    expect(isTrustedProxy('10.1.2.3')).toBe(true);
    expect(isTrustedProxy('::ffff:10.1.2.3')).toBe(true);
    expect(isTrustedProxy('2001:db8:1:2::9')).toBe(true);
    expect(isTrustedProxy('192.0.2.7')).toBe(true);
    expect(isTrustedProxy('192.0.2.8')).toBe(false);
    expect(isTrustedProxy('2001:db8:2::9')).toBe(false);
    expect(isTrustedProxy('garbage')).toBe(false);
  });

  it('refuses bad networks at configuration time', () => {
    expect(() => createTrustedProxyMatcher(['10.0.0.5'])).toThrow(InvalidCidrError);
    expect(() => createTrustedProxyMatcher(['10.0.0.5/8'])).toThrow(CidrHostBitsError);
    expect(() => createTrustedProxyMatcher('10.0.0.0/8' as unknown as string[])).toThrow(TypeError);
  });

  it('an empty list trusts nothing', () => {
    expect(createTrustedProxyMatcher([])('10.0.0.1')).toBe(false);
  });
});
