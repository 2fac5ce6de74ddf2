import { describe, expect, it } from 'vitest';
import { CidrHostBitsError } from './cidr-errors.js';
import { createClientAddressReader } from './client-address.js';

const PROXY = '10.0.0.5';
const PROXY_2 = '10.0.0.6';
const CLIENT = '203.0.113.9';
const SPOOFED = '6.6.6.6';

describe('createClientAddressReader: trustedProxyHops 0 (default)', () => {
  const read = createClientAddressReader();

  it('uses the socket address and ignores a spoofed X-Forwarded-For', () => {
    expect(read({ socketAddress: CLIENT, forwardedFor: SPOOFED })).toBe(CLIENT);
    expect(read({ socketAddress: CLIENT, forwardedFor: `${SPOOFED}, 1.1.1.1` })).toBe(CLIENT);
    expect(read({ socketAddress: CLIENT, forwardedFor: 'garbage' })).toBe(CLIENT);
  });

  it('reads IPv4-mapped socket addresses as IPv4 and writes IPv6 canonically', () => {
    expect(read({ socketAddress: '::ffff:203.0.113.9', forwardedFor: null })).toBe(CLIENT);
    expect(read({ socketAddress: '2001:DB8:0::1', forwardedFor: null })).toBe('2001:db8::1');
  });

  it('cannot determine the address without a valid socket address', () => {
    expect(read({ socketAddress: undefined, forwardedFor: CLIENT })).toBeUndefined();
    expect(read({ socketAddress: '', forwardedFor: CLIENT })).toBeUndefined();
    expect(read({ socketAddress: 'fe80::1%eth0', forwardedFor: null })).toBeUndefined();
  });
});

describe('createClientAddressReader: trustedProxyHops 1', () => {
  const read = createClientAddressReader({ trustedProxyHops: 1, isTrustedProxy: ['10.0.0.0/8'] });

  it('takes the entry the trusted proxy appended, ignoring what the client wrote before it', () => {
    expect(read({ socketAddress: PROXY, forwardedFor: CLIENT })).toBe(CLIENT);
    expect(read({ socketAddress: PROXY, forwardedFor: `${SPOOFED}, ${CLIENT}` })).toBe(CLIENT);
    expect(read({ socketAddress: `::ffff:${PROXY}`, forwardedFor: `::ffff:${CLIENT}` })).toBe(CLIENT);
  });

  it('a client bypassing the proxy is its socket address; its X-Forwarded-For is ignored', () => {
    expect(read({ socketAddress: CLIENT, forwardedFor: SPOOFED })).toBe(CLIENT);
    expect(read({ socketAddress: CLIENT, forwardedFor: null })).toBe(CLIENT);
    expect(read({ socketAddress: CLIENT, forwardedFor: 'garbage' })).toBe(CLIENT);
  });

  it('is undetermined when the proxy sent no entry or an invalid one', () => {
    expect(read({ socketAddress: PROXY, forwardedFor: null })).toBeUndefined();
    expect(read({ socketAddress: PROXY, forwardedFor: undefined })).toBeUndefined();
    expect(read({ socketAddress: PROXY, forwardedFor: '' })).toBeUndefined();
    expect(read({ socketAddress: PROXY, forwardedFor: '  ' })).toBeUndefined();
    expect(read({ socketAddress: PROXY, forwardedFor: `${CLIENT},` })).toBeUndefined();
    expect(read({ socketAddress: PROXY, forwardedFor: 'unknown' })).toBeUndefined();
    expect(read({ socketAddress: PROXY, forwardedFor: `${CLIENT}:443` })).toBeUndefined();
    expect(read({ socketAddress: PROXY, forwardedFor: '[2001:db8::1]' })).toBeUndefined();
    expect(read({ socketAddress: PROXY, forwardedFor: '203.0.113.09' })).toBeUndefined();
  });

  it('without isTrustedProxy, trusts any socket peer as the proxy', () => {
    const readAny = createClientAddressReader({ trustedProxyHops: 1 });
    expect(readAny({ socketAddress: PROXY, forwardedFor: `${SPOOFED}, ${CLIENT}` })).toBe(CLIENT);
    // The documented risk: a client reaching the server directly can choose its address.
    expect(readAny({ socketAddress: CLIENT, forwardedFor: SPOOFED })).toBe(SPOOFED);
  });

  it('accepts a function as isTrustedProxy, given canonical text', () => {
    const seen: string[] = [];
    const readFn = createClientAddressReader({
      trustedProxyHops: 1,
      isTrustedProxy: (address) => {
        seen.push(address);
        return address === PROXY;
      },
    });
    expect(readFn({ socketAddress: `::FFFF:${PROXY}`, forwardedFor: CLIENT })).toBe(CLIENT);
    expect(readFn({ socketAddress: CLIENT, forwardedFor: SPOOFED })).toBe(CLIENT);
    expect(seen).toEqual([PROXY, CLIENT]);
  });
});

describe('createClientAddressReader: trustedProxyHops 2', () => {
  const read = createClientAddressReader({ trustedProxyHops: 2, isTrustedProxy: ['10.0.0.0/8'] });
  const readAny = createClientAddressReader({ trustedProxyHops: 2 });

  it('skips one proxy entry and takes the next', () => {
    const forwardedFor = `${SPOOFED}, ${CLIENT}, ${PROXY_2}`;
    expect(read({ socketAddress: PROXY, forwardedFor })).toBe(CLIENT);
    expect(readAny({ socketAddress: PROXY, forwardedFor })).toBe(CLIENT);
  });

  it('stops at the first entry that is not a trusted proxy', () => {
    // The client connected straight to the nearest proxy, skipping the outer one.
    expect(read({ socketAddress: PROXY, forwardedFor: `${SPOOFED}, ${CLIENT}` })).toBe(CLIENT);
    expect(read({ socketAddress: PROXY, forwardedFor: CLIENT })).toBe(CLIENT);
    // Without the matcher the same header is read one entry further: the forged value.
    expect(readAny({ socketAddress: PROXY, forwardedFor: `${SPOOFED}, ${CLIENT}` })).toBe(SPOOFED);
  });

  it('is undetermined with too few entries', () => {
    expect(readAny({ socketAddress: PROXY, forwardedFor: CLIENT })).toBeUndefined();
    expect(read({ socketAddress: PROXY, forwardedFor: PROXY_2 })).toBeUndefined();
  });

  it('is undetermined when an entry on the walk is garbage', () => {
    expect(read({ socketAddress: PROXY, forwardedFor: `${CLIENT}, garbage` })).toBeUndefined();
    expect(read({ socketAddress: PROXY, forwardedFor: `garbage, ${PROXY_2}` })).toBeUndefined();
    expect(read({ socketAddress: PROXY, forwardedFor: `${CLIENT},, ${PROXY_2}` })).toBeUndefined();
    expect(read({ socketAddress: PROXY, forwardedFor: `,${PROXY_2}` })).toBeUndefined();
  });

  it('never reads garbage left of the chosen entry', () => {
    expect(read({ socketAddress: PROXY, forwardedFor: `garbage,,, ${CLIENT}, ${PROXY_2}` })).toBe(CLIENT);
  });

  it('tolerates spaces and tabs around commas and comma-joined header lines', () => {
    expect(read({ socketAddress: PROXY, forwardedFor: `${SPOOFED} ,\t${CLIENT}\t,   ${PROXY_2}  ` })).toBe(CLIENT);
    // Two header lines `X-Forwarded-For: 6.6.6.6, <client>` and `X-Forwarded-For: <proxy 2>`.
    expect(read({ socketAddress: PROXY, forwardedFor: [`${SPOOFED}, ${CLIENT}`, PROXY_2].join(', ') })).toBe(CLIENT);
    expect(read({ socketAddress: PROXY, forwardedFor: `${CLIENT},${PROXY_2}` })).toBe(CLIENT);
  });

  it('normalises IPv6 and mapped entries', () => {
    expect(read({ socketAddress: PROXY, forwardedFor: `2001:DB8::0:1, ::ffff:${PROXY_2}` })).toBe('2001:db8::1');
    expect(read({ socketAddress: PROXY, forwardedFor: `::ffff:cb00:7109, ${PROXY_2}` })).toBe(CLIENT);
  });
});

describe('createClientAddressReader: options', () => {
  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '1' as unknown as number])(
    'refuses trustedProxyHops %j',
    (trustedProxyHops) => {
      expect(() => createClientAddressReader({ trustedProxyHops })).toThrow(RangeError);
    },
  );

  it('refuses a bad isTrustedProxy network at creation', () => {
    expect(() => createClientAddressReader({ trustedProxyHops: 1, isTrustedProxy: ['10.0.0.5/8'] })).toThrow(
      CidrHostBitsError,
    );
  });

  it('ignores isTrustedProxy when hops is 0', () => {
    const read = createClientAddressReader({ isTrustedProxy: ['10.0.0.0/8'] });
    expect(read({ socketAddress: PROXY, forwardedFor: CLIENT })).toBe(PROXY);
  });
});
