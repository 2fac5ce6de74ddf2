// The client-address reader against an independent model of a proxy chain.
//
// Reality: client -> proxy R -> ... -> proxy 1 -> this server. Proxy k appends the address of its
// own peer to X-Forwarded-For (proxy R appends the client, proxy k < R appends proxy k+1), and the
// server's socket peer is proxy 1. The client may send its own X-Forwarded-For first (spoofed
// prefix), and may bypass the proxies and connect directly. The configuration (N hops, with or
// without isTrustedProxy) may or may not match reality.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createClientAddressReader } from '../../lib/network/client-address.js';
import type { ClientAddressOptions, ClientAddressReader } from '../../lib/network/client-address.js';
import { createTrustedProxyMatcher } from '../../lib/network/trusted-proxy.js';
import { anyAddressArb, groupsFromValue, ipv6SpellingArb, mappedSpellings, writeGroups, writeOctets } from './network-arbitraries.js';
import type { Octets } from './network-arbitraries.js';
import { modelFormat, modelFromGroups, modelFromOctets } from './reference-model.js';

const TRUSTED_NETWORKS = ['10.0.0.0/8', 'fd00::/8'];

/** An address as written on the wire (any valid spelling) and its canonical text (from the model). */
interface Host {
  readonly wire: string;
  readonly canonical: string;
}

function v4Host(octets: Octets, spelling: number): fc.Arbitrary<Host> {
  const canonical = writeOctets(octets);
  const spellings = [canonical, canonical, ...mappedSpellings(octets)];
  return fc.constant({ wire: spellings[spelling % spellings.length] ?? canonical, canonical });
}

function v6Host(firstGroupMin: number, firstGroupMax: number): fc.Arbitrary<Host> {
  return fc
    .tuple(fc.integer({ min: firstGroupMin, max: firstGroupMax }), fc.bigInt({ min: 0n, max: (1n << 112n) - 1n }))
    .chain(([first, rest]) => {
      const groups = groupsFromValue((BigInt(first) << 112n) | rest);
      return ipv6SpellingArb(groups).map((spelling) => ({
        wire: writeGroups(groups, spelling),
        canonical: modelFormat(modelFromGroups(groups)),
      }));
    });
}

const byte = fc.integer({ min: 0, max: 255 });

/** The application's own proxies: 10.0.0.0/8 and fd00::/8. */
const proxyArb: fc.Arbitrary<Host> = fc.oneof(
  fc.tuple(byte, byte, byte, fc.nat(6)).chain(([b, c, d, s]) => v4Host([10, b, c, d], s)),
  v6Host(0xfd00, 0xfdff),
);

/** Clients: public-looking addresses outside the proxy networks. */
const clientArb: fc.Arbitrary<Host> = fc.oneof(
  fc
    .tuple(fc.integer({ min: 1, max: 222 }).filter((a) => a !== 10), byte, byte, byte, fc.nat(6))
    .chain(([a, b, c, d, s]) => v4Host([a, b, c, d], s)),
  v6Host(0x2000, 0x3fff),
);

/** What a client may write in its own X-Forwarded-For: any address (trusted ranges too) or junk. */
const spoofedEntryArb: fc.Arbitrary<Host | { readonly wire: string; readonly canonical: undefined }> = fc.oneof(
  anyAddressArb.map((a) => ({
    wire: a.text,
    canonical: modelFormat(a.version === 4 ? modelFromOctets(a.octets) : modelFromGroups(a.groups)),
  })),
  proxyArb,
  fc.constantFrom('unknown', '', 'garbage', '1.2.3.4:80', '[::1]', '010.0.0.1', 'fe80::1%eth0').map((wire) => ({
    wire,
    canonical: undefined,
  })),
);

const separatorArb = fc.constantFrom(',', ', ', ' ,', ' , ', ',\t', '\t, ');

type MatcherKind = 'none' | 'list' | 'function' | 'helper';

const scenarioArb = fc.record({
  client: clientArb,
  proxies: fc.array(proxyArb, { minLength: 0, maxLength: 4 }), // proxies[0] is proxy 1, nearest
  spoofed: fc.array(spoofedEntryArb, { minLength: 0, maxLength: 4 }),
  hops: fc.integer({ min: 0, max: 5 }),
  bypass: fc.boolean(),
  matcher: fc.constantFrom<MatcherKind>('none', 'list', 'function', 'helper'),
  separators: fc.array(separatorArb, { minLength: 10, maxLength: 10 }),
});

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

function optionsFor(kind: MatcherKind, hops: number): ClientAddressOptions {
  switch (kind) {
    case 'none':
      return { trustedProxyHops: hops };
    case 'list':
      return { trustedProxyHops: hops, isTrustedProxy: TRUSTED_NETWORKS };
    case 'helper':
      return { trustedProxyHops: hops, isTrustedProxy: createTrustedProxyMatcher(TRUSTED_NETWORKS) };
    case 'function':
      // Relies on receiving canonical text: mapped IPv4 as IPv4, IPv6 lowercase.
      return { trustedProxyHops: hops, isTrustedProxy: (a) => a.startsWith('10.') || a.startsWith('fd') };
  }
}

// Readers are built once per configuration, as an application would.
const readers = new Map<string, ClientAddressReader>();
function readerFor(kind: MatcherKind, hops: number): ClientAddressReader {
  const key = `${kind}/${hops}`;
  let reader = readers.get(key);
  if (reader === undefined) {
    reader = createClientAddressReader(optionsFor(kind, hops));
    readers.set(key, reader);
  }
  return reader;
}

/** What the server receives in this scenario. */
function wireFor(s: Scenario): { socketAddress: string; forwardedFor: string | null; viaProxies: boolean } {
  const viaProxies = !s.bypass && s.proxies.length > 0;
  const entries = s.spoofed.map((e) => e.wire);
  if (viaProxies) {
    // Proxy R appends the client; proxy k appends proxy k+1 (its peer).
    entries.push(s.client.wire);
    for (let k = s.proxies.length - 1; k >= 1; k--) entries.push((s.proxies[k] as Host).wire);
  }
  const socketAddress = viaProxies ? (s.proxies[0] as Host).wire : s.client.wire;
  if (entries.length === 0) return { socketAddress, forwardedFor: null, viaProxies };
  let header = entries[0] ?? '';
  for (let i = 1; i < entries.length; i++) header += (s.separators[i % s.separators.length] ?? ',') + entries[i];
  return { socketAddress, forwardedFor: header, viaProxies };
}

/**
 * What walking k entries into the client's own header yields: the k-th entry from the right
 * (1-based) when it and every entry walked before it are valid addresses, else undefined.
 */
function spoofedFromRight(s: Scenario, k: number): string | undefined {
  for (let i = 1; i < k; i++) {
    if (s.spoofed[s.spoofed.length - i]?.canonical === undefined) return undefined;
  }
  return s.spoofed[s.spoofed.length - k]?.canonical;
}

const RUNS = { numRuns: 1000 };

function realHopsOf(s: Scenario): number {
  return !s.bypass && s.proxies.length > 0 ? s.proxies.length : 0;
}

// Derived generators that build the case each property is about, instead of filtering for it.
const matchingConfigArb = scenarioArb.map((s) => ({ ...s, hops: realHopsOf(s) }));
const withMatcherArb = scenarioArb.map((s) => ({ ...s, matcher: s.matcher === 'none' ? ('list' as const) : s.matcher }));
const notOverCountedArb = scenarioArb
  .filter((s) => s.proxies.length > 0)
  .map((s) => ({ ...s, bypass: false, hops: s.hops % (s.proxies.length + 1) }));
const overCountedWithoutMatcherArb = scenarioArb.map((s) => ({
  ...s,
  matcher: 'none' as const,
  hops: realHopsOf(s) + 1 + (s.hops % 4),
}));

describe('client address against a proxy-chain model', () => {
  it('returns the true client when the configuration matches reality', () => {
    fc.assert(
      fc.property(matchingConfigArb, (s) => {
        const wire = wireFor(s);
        expect(readerFor(s.matcher, s.hops)(wire)).toBe(s.client.canonical);
      }),
      RUNS,
    );
  });

  it('with an accurate isTrustedProxy, never returns what the client wrote, for any N >= the real hops', () => {
    fc.assert(
      fc.property(withMatcherArb, (s) => {
        const wire = wireFor(s);
        const realHops = realHopsOf(s);
        const result = readerFor(s.matcher, s.hops)(wire);
        if (s.hops >= realHops) expect(result).toBe(s.client.canonical);
        // Fewer configured hops than real: a proxy of the chain, never a forged value.
        else expect(result).toBe((s.proxies[s.hops] as Host).canonical);
      }),
      RUNS,
    );
  });

  it('with N <= the real proxies, never returns a value from the spoofed prefix', () => {
    fc.assert(
      fc.property(notOverCountedArb, (s) => {
        const wire = wireFor(s);
        expect(wire.viaProxies).toBe(true);
        const result = readerFor(s.matcher, s.hops)(wire);
        const chain = [s.client, ...s.proxies].map((h) => h.canonical);
        expect(result).toBeDefined();
        expect(chain).toContain(result);
        // Exactly: N = 0 is the socket peer; otherwise the entry proxy N appended.
        const expected = s.hops === s.proxies.length ? s.client.canonical : (s.proxies[s.hops] as Host).canonical;
        expect(result).toBe(expected);
      }),
      RUNS,
    );
  });

  it('without isTrustedProxy, over-counting reads the documented spoofable entry or fails closed', () => {
    fc.assert(
      fc.property(overCountedWithoutMatcherArb, (s) => {
        const wire = wireFor(s);
        const result = readerFor(s.matcher, s.hops)(wire);
        // The (N - real)-th entry of the client's own header, if it is a valid address.
        expect(result).toBe(spoofedFromRight(s, s.hops - realHopsOf(s)));
      }),
      RUNS,
    );
  });

  it('always returns undefined or canonical text of an address present in the request', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const wire = wireFor(s);
        const result = readerFor(s.matcher, s.hops)(wire);
        if (result === undefined) return;
        const present = [s.client, ...s.proxies, ...s.spoofed].map((h) => h.canonical);
        expect(present).toContain(result);
      }),
      RUNS,
    );
  });

  it('without a socket address, the client address is never determined', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const wire = wireFor(s);
        expect(readerFor(s.matcher, s.hops)({ socketAddress: undefined, forwardedFor: wire.forwardedFor })).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });
});
