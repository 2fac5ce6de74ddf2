import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cidrContains, formatCidr, parseCidr } from '../../lib/network/cidr.js';
import { CidrHostBitsError, InvalidCidrError } from '../../lib/network/cidr-errors.js';
import { parseIpAddress } from '../../lib/network/ip-address.js';
import type { IpAddress } from '../../lib/network/ip-address.js';
import {
  anyAddressArb,
  groupsFromValue,
  ipv6SpellingArb,
  mappedSpellings,
  octetsArb,
  octetsFromValue,
  prefixArb,
  valueFromGroups,
  valueFromOctets,
  writeGroups,
  writeOctets,
} from './network-arbitraries.js';
import {
  ipaddr,
  modelContains,
  modelFormat,
  modelFromGroups,
  modelFromOctets,
  modelMask,
  modelNetworkFromRaw,
  oracleAddress,
  oracleContains,
  oracleNetwork,
} from './reference-model.js';
import type { ModelAddress, ModelNetwork } from './reference-model.js';

const RUNS = { numRuns: 1000 };

interface GeneratedNetwork {
  readonly text: string;
  readonly model: ModelNetwork;
}

interface GeneratedAddress {
  readonly text: string;
  readonly model: ModelAddress;
}

// `::a.b.c.d` is read differently by ipaddr.js (see reference-model.ts); skip it for that oracle.
function ipaddrReadsLikeRfc(text: string): boolean {
  return !/^::\d+\.\d+\.\d+\.\d+(\/\d+)?$/.test(text);
}

/** A valid network: random bits masked to a random prefix, written in a random valid spelling. */
const networkArb: fc.Arbitrary<GeneratedNetwork> = fc.oneof(
  fc.tuple(octetsArb, prefixArb(32)).map(([octets, prefix]): GeneratedNetwork => {
    const raw = modelMask({ version: 4, value: valueFromOctets(octets) }, prefix);
    return { text: `${writeOctets(octetsFromValue(raw))}/${prefix}`, model: { version: 4, value: raw, prefixLength: prefix } };
  }),
  fc
    .tuple(anyAddressArb, prefixArb(128))
    .chain(([address, prefix]) => {
      // Reuse IPv6 values (mapped ones included) and widen IPv4 ones into the mapped block.
      const value =
        address.version === 6 ? valueFromGroups(address.groups) : (0xffffn << 32n) | valueFromOctets(address.octets);
      const raw = modelMask({ version: 6, value }, prefix);
      const groups = groupsFromValue(raw);
      return ipv6SpellingArb(groups).map((spelling) => ({
        text: `${writeGroups(groups, spelling)}/${prefix}`,
        model: modelNetworkFromRaw(6, raw, prefix),
      }));
    }),
);

function modelToText(model: ModelAddress, mappedSpelling: number): string {
  if (model.version === 4) {
    const octets = octetsFromValue(model.value);
    const spellings = [writeOctets(octets), ...mappedSpellings(octets)];
    return spellings[mappedSpelling % spellings.length] ?? writeOctets(octets);
  }
  return modelFormat(model);
}

/** An address: arbitrary, or inside / just outside a given network. */
function addressNear(network: ModelNetwork): fc.Arbitrary<GeneratedAddress> {
  const width = network.version === 4 ? 32 : 128;
  const bits = fc.bigInt({ min: 0n, max: (1n << BigInt(width)) - 1n });
  const near = fc.tuple(bits, fc.integer({ min: 0, max: width - 1 }), fc.boolean(), fc.nat(5)).map(([random, flip, doFlip, spelling]) => {
    const hostBits = BigInt(width - network.prefixLength);
    const hostMask = (1n << hostBits) - 1n;
    let value = network.value | (random & hostMask);
    if (doFlip) value ^= 1n << BigInt(flip);
    // An IPv6 value landing in ::ffff:0:0/96 is an IPv4 address (SPEC 11), in the model too.
    const model: ModelAddress =
      network.version === 6 && value >> 32n === 0xffffn
        ? { version: 4, value: value & 0xffffffffn }
        : { version: network.version, value };
    return { text: modelToText(model, spelling), model };
  });
  const any = fc.tuple(anyAddressArb, fc.nat(5)).map(([address, spelling]) => {
    const model = address.version === 4 ? modelFromOctets(address.octets) : modelFromGroups(address.groups);
    return { text: address.version === 4 ? modelToText(model, spelling) : address.text, model };
  });
  return fc.oneof({ weight: 3, arbitrary: near }, { weight: 1, arbitrary: any });
}

const networkAndAddressArb = networkArb.chain((network) =>
  addressNear(network.model).map((address) => ({ network, address })),
);

function parsed(text: string): IpAddress {
  const address = parseIpAddress(text);
  if (address === undefined) throw new Error(`generated address ${text} did not parse`);
  return address;
}

describe('cidrContains', () => {
  it('agrees with the bigint model and with ipaddr.js match', () => {
    let inside = 0;
    fc.assert(
      fc.property(networkAndAddressArb, ({ network, address }) => {
        const ours = cidrContains(parseCidr(network.text), parsed(address.text));
        expect(ours).toBe(modelContains(network.model, address.model));
        if (ours) inside++;
        if (ipaddrReadsLikeRfc(network.text) && ipaddrReadsLikeRfc(address.text)) {
          expect(ours).toBe(oracleContains(oracleNetwork(network.text), oracleAddress(address.text)));
        }
      }),
      RUNS,
    );
    // The generator must exercise both answers, or the property says little.
    expect(inside).toBeGreaterThan(200);
    expect(inside).toBeLessThan(900);
  });

  it('an IPv4-mapped address is contained exactly when its IPv4 address is', () => {
    fc.assert(
      fc.property(networkArb, octetsArb, fc.nat(4), (network, octets, spelling) => {
        const net = parseCidr(network.text);
        const plain = cidrContains(net, parsed(writeOctets(octets)));
        const text = mappedSpellings(octets)[spelling] ?? `::ffff:${writeOctets(octets)}`;
        expect(cidrContains(net, parsed(text))).toBe(plain);
        const handBuilt = Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...octets);
        expect(cidrContains(net, { version: 6, bytes: handBuilt })).toBe(plain);
      }),
      RUNS,
    );
  });

  it('an IPv4 network never contains a non-mapped IPv6 address, nor an IPv6 network an IPv4 one', () => {
    fc.assert(
      fc.property(networkArb, anyAddressArb, (network, address) => {
        const net = parseCidr(network.text);
        const ip = parsed(address.text);
        if (net.version !== ip.version) expect(cidrContains(net, ip)).toBe(false);
      }),
      RUNS,
    );
  });
});

/** Any address text with any prefix in range: host bits may or may not be set. */
const maybeHostBitsArb = fc.oneof(
  fc.tuple(octetsArb, prefixArb(32)).map(([octets, prefix]) => ({
    text: `${writeOctets(octets)}/${prefix}`,
    version: 4 as const,
    raw: valueFromOctets(octets),
    prefix,
  })),
  fc.tuple(anyAddressArb, prefixArb(128)).map(([address, prefix]) => {
    const raw = address.version === 6 ? valueFromGroups(address.groups) : (0xffffn << 32n) | valueFromOctets(address.octets);
    const text = address.version === 6 ? address.text : `::ffff:${address.text}`;
    return { text: `${text}/${prefix}`, version: 6 as const, raw, prefix };
  }),
);

describe('host bits', () => {
  it('are refused exactly when set, suggesting the masked network (bigint model and ipaddr.js)', () => {
    let refused = 0;
    fc.assert(
      fc.property(maybeHostBitsArb, ({ text, version, raw, prefix }) => {
        const masked = modelMask({ version, value: raw }, prefix);
        const expectedNetwork = modelNetworkFromRaw(version, masked, prefix);
        const expectedText = `${modelFormat(expectedNetwork)}/${expectedNetwork.prefixLength}`;
        let thrown: unknown;
        let result: string | undefined;
        try {
          result = formatCidr(parseCidr(text));
        } catch (error) {
          thrown = error;
        }
        if (masked === raw) {
          expect(thrown).toBeUndefined();
          expect(result).toBe(expectedText);
          return;
        }
        refused++;
        expect(thrown).toBeInstanceOf(CidrHostBitsError);
        const suggestion = (thrown as CidrHostBitsError).suggestion;
        expect(suggestion).toBe(expectedText);
        // The suggestion is itself a valid network, equal to itself in canonical form.
        expect(formatCidr(parseCidr(suggestion))).toBe(suggestion);
        if (ipaddrReadsLikeRfc(text)) {
          const base = version === 4 ? ipaddr.IPv4.networkAddressFromCIDR(text) : ipaddr.IPv6.networkAddressFromCIDR(text);
          const [oracleBase, oraclePrefix] = oracleNetwork(`${base.toString()}/${prefix}`);
          const oracleText = oracleBase.kind() === 'ipv4' ? oracleBase.toString() : (oracleBase as ipaddr.IPv6).toRFC5952String();
          expect(suggestion).toBe(`${oracleText}/${oraclePrefix}`);
        }
      }),
      RUNS,
    );
    expect(refused).toBeGreaterThan(200);
  });
});

describe('parseCidr form', () => {
  it('parse -> format -> parse is the identity', () => {
    fc.assert(
      fc.property(networkArb, (network) => {
        const first = parseCidr(network.text);
        const text = formatCidr(first);
        expect(parseCidr(text)).toEqual(first);
        expect(formatCidr(parseCidr(text))).toBe(text);
      }),
      RUNS,
    );
  });

  const badPrefix = fc.oneof(
    fc.integer({ min: 0, max: 128 }).map((n) => `0${n}`),
    fc.integer({ min: 129, max: 100_000 }).map(String),
    fc.integer({ min: 0, max: 128 }).map((n) => `+${n}`),
    fc.integer({ min: 0, max: 128 }).map((n) => `-${n}`),
    fc.integer({ min: 0, max: 128 }).map((n) => ` ${n}`),
    fc.integer({ min: 0, max: 128 }).map((n) => `${n} `),
    fc.integer({ min: 0, max: 128 }).map((n) => `${n}.0`),
    fc.integer({ min: 0, max: 128 }).map((n) => `0x${n.toString(16)}`),
    fc.constantFrom('', 'a', '/8', '1e1', '٨'),
  );

  it('a malformed prefix, or a v4 prefix over 32, is InvalidCidrError and never host bits', () => {
    fc.assert(
      fc.property(anyAddressArb, badPrefix, fc.integer({ min: 33, max: 128 }), (address, prefix, v4Big) => {
        const texts = [`${address.text}/${prefix}`];
        if (address.version === 4) texts.push(`${address.text}/${v4Big}`);
        for (const text of texts) {
          let thrown: unknown;
          try {
            parseCidr(text);
          } catch (error) {
            thrown = error;
          }
          expect(thrown).toBeInstanceOf(InvalidCidrError);
          expect(thrown).not.toBeInstanceOf(CidrHostBitsError);
        }
      }),
      RUNS,
    );
  });

  it('agrees with ipaddr.js on validity where ipaddr.js is strict (strict address, canonical prefix)', () => {
    fc.assert(
      fc.property(anyAddressArb, fc.integer({ min: 0, max: 140 }), (address, prefix) => {
        const text = `${address.text}/${prefix}`;
        fc.pre(ipaddrReadsLikeRfc(text));
        const oracleValid = address.version === 4 ? ipaddr.IPv4.isValidCIDRFourPartDecimal(text) : ipaddr.IPv6.isValidCIDR(text);
        let oursValid = true;
        try {
          parseCidr(text);
        } catch (error) {
          oursValid = error instanceof CidrHostBitsError; // the form is valid; only the bits are not
          if (!(error instanceof InvalidCidrError)) throw error;
        }
        expect(oursValid).toBe(oracleValid);
      }),
      RUNS,
    );
  });
});
