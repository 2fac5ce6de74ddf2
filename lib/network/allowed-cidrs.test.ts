import { describe, expect, it } from 'vitest';
import { compileAllowedCidrs, parseAllowedCidrs } from './allowed-cidrs.js';
import { CidrHostBitsError, InvalidCidrError, MalformedStoredCidrError } from './cidr-errors.js';
import { parseIpAddress } from './ip-address.js';

describe('parseAllowedCidrs (key creation)', () => {
  it('returns canonical networks to store', () => {
    expect(parseAllowedCidrs(['10.0.0.0/8', '2001:DB8:0::/32', '::ffff:192.0.2.0/120'])).toEqual([
      '10.0.0.0/8',
      '2001:db8::/32',
      '192.0.2.0/24',
    ]);
  });

  it('treats missing and empty as "any address"', () => {
    expect(parseAllowedCidrs(undefined)).toEqual([]);
    expect(parseAllowedCidrs(null)).toEqual([]);
    expect(parseAllowedCidrs([])).toEqual([]);
  });

  it('throws CidrHostBitsError naming the network probably meant', () => {
    expect(() => parseAllowedCidrs(['10.0.0.0/8', '10.1.2.3/24'])).toThrow(CidrHostBitsError);
    expect(() => parseAllowedCidrs(['10.1.2.3/24'])).toThrow(/did you mean "10\.1\.2\.0\/24"/);
  });

  it('throws InvalidCidrError for malformed input', () => {
    expect(() => parseAllowedCidrs(['10.0.0.0/33'])).toThrow(InvalidCidrError);
    expect(() => parseAllowedCidrs([7 as unknown as string])).toThrow(InvalidCidrError);
    expect(() => parseAllowedCidrs('10.0.0.0/8' as unknown as string[])).toThrow(InvalidCidrError);
  });
});

describe('compileAllowedCidrs (request time)', () => {
  it('an unrestricted key allows any request, even of unknown address', () => {
    for (const list of [undefined, null, []]) {
      const allowed = compileAllowedCidrs(list);
      expect(allowed.restricted).toBe(false);
      expect(allowed.allows(undefined)).toBe(true);
      expect(allowed.allows('203.0.113.1')).toBe(true);
    }
  });

  it('a restricted key allows only addresses inside its networks', () => {
    const allowed = compileAllowedCidrs(['10.0.0.0/8', '2001:db8::/32']);
    expect(allowed.restricted).toBe(true);
    expect(allowed.allows('10.2.3.4')).toBe(true);
    expect(allowed.allows('::ffff:10.2.3.4')).toBe(true);
    expect(allowed.allows('2001:db8::7')).toBe(true);
    expect(allowed.allows(parseIpAddress('10.0.0.1'))).toBe(true);
    expect(allowed.allows('11.0.0.1')).toBe(false);
    expect(allowed.allows('2001:db9::7')).toBe(false);
  });

  it('a restricted key refuses an unknown or unparsable address (fail closed)', () => {
    const allowed = compileAllowedCidrs(['0.0.0.0/0', '::/0']);
    expect(allowed.allows(undefined)).toBe(false);
    expect(allowed.allows('')).toBe(false);
    expect(allowed.allows('not an address')).toBe(false);
    expect(allowed.allows('10.0.0.1 ')).toBe(false);
  });

  it.each([[['10.0.0.0/33']], [['10.0.0.0/8', 'garbage']], [['10.1.2.3/24']], [[null as unknown as string]]])(
    'a malformed stored list %j throws MalformedStoredCidrError, not InvalidCidrError',
    (list) => {
      let thrown: unknown;
      try {
        compileAllowedCidrs(list);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(MalformedStoredCidrError);
      expect(thrown).not.toBeInstanceOf(InvalidCidrError);
      expect((thrown as MalformedStoredCidrError).cause).toBeInstanceOf(InvalidCidrError);
    },
  );

  it('reports the index of the bad stored entry', () => {
    try {
      compileAllowedCidrs(['10.0.0.0/8', 'garbage']);
      expect.unreachable();
    } catch (error) {
      expect((error as MalformedStoredCidrError).index).toBe(1);
    }
  });

  it('refuses a stored value that is not a list', () => {
    expect(() => compileAllowedCidrs('10.0.0.0/8' as unknown as string[])).toThrow(MalformedStoredCidrError);
  });
});
