import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatIpAddress } from '../../lib/network/format-ip-address.js';
import { parseIpAddress } from '../../lib/network/ip-address.js';
import { normalizeIpAddress } from '../../lib/network/normalize-ip-address.js';
import { anyAddressArb, ipv6Arb, mappedSpellings, octetsArb, writeOctets } from './network-arbitraries.js';
import { ipaddr, modelFormat, modelFromGroups, modelFromOctets, oracleAddress } from './reference-model.js';
import type { ModelAddress } from './reference-model.js';

const RUNS = { numRuns: 1000 };

function valueOf(text: string): ModelAddress | undefined {
  const address = parseIpAddress(text);
  if (address === undefined) return undefined;
  let value = 0n;
  for (const byte of address.bytes) value = (value << 8n) | BigInt(byte);
  return { version: address.version, value };
}

// The one spelling where ipaddr.js reads a valid address differently from RFC 4291 (see
// reference-model.ts): `::a.b.c.d`.
function isIpv4CompatibleSpelling(text: string): boolean {
  return /^::\d+\.\d+\.\d+\.\d+$/.test(text);
}

describe('parse and format against the models', () => {
  it('every spelling of an address parses to its value (bigint model)', () => {
    fc.assert(
      fc.property(anyAddressArb, (address) => {
        const expected = address.version === 4 ? modelFromOctets(address.octets) : modelFromGroups(address.groups);
        expect(valueOf(address.text)).toEqual(expected);
      }),
      RUNS,
    );
  });

  it('format writes the naive RFC 5952 model text', () => {
    fc.assert(
      fc.property(anyAddressArb, (address) => {
        const expected = address.version === 4 ? modelFromOctets(address.octets) : modelFromGroups(address.groups);
        expect(normalizeIpAddress(address.text)).toBe(modelFormat(expected));
      }),
      RUNS,
    );
  });

  it('format agrees with ipaddr.js (toString for IPv4 and mapped, toRFC5952String for IPv6)', () => {
    fc.assert(
      fc.property(anyAddressArb, (address) => {
        fc.pre(!isIpv4CompatibleSpelling(address.text));
        const oracle = oracleAddress(address.text);
        const expected = oracle.kind() === 'ipv4' ? oracle.toString() : (oracle as ipaddr.IPv6).toRFC5952String();
        expect(normalizeIpAddress(address.text)).toBe(expected);
      }),
      RUNS,
    );
  });

  it('parse -> format -> parse is the identity, and format is idempotent', () => {
    fc.assert(
      fc.property(anyAddressArb, (address) => {
        const parsed = parseIpAddress(address.text);
        expect(parsed).toBeDefined();
        if (parsed === undefined) return;
        const text = formatIpAddress(parsed);
        expect(parseIpAddress(text)).toEqual(parsed);
        expect(normalizeIpAddress(text)).toBe(text);
      }),
      RUNS,
    );
  });

  it('IPv4-mapped IPv6 in every spelling reads as the IPv4 address', () => {
    fc.assert(
      fc.property(octetsArb, (octets) => {
        const v4 = parseIpAddress(writeOctets(octets));
        for (const text of mappedSpellings(octets)) {
          expect(parseIpAddress(text)).toEqual(v4);
          expect(normalizeIpAddress(text)).toBe(writeOctets(octets));
        }
      }),
      RUNS,
    );
  });
});

// Characters that turn up in broken or hostile address text.
const noiseChar = fc.constantFrom(...'0123456789abcdefABCDEFgxX:.%/ \t-+[]'.split(''), '١', '\n');

/** A valid address text with a few random edits. */
const mutatedArb = fc
  .tuple(
    fc.oneof(anyAddressArb.map((a) => a.text), octetsArb.map((o) => `::ffff:${writeOctets(o)}`)),
    fc.array(fc.tuple(fc.constantFrom('insert', 'delete', 'replace', 'duplicate'), fc.nat(), noiseChar), {
      minLength: 1,
      maxLength: 3,
    }),
  )
  .map(([text, edits]) => {
    let out = text;
    for (const [kind, at, char] of edits) {
      const i = out.length === 0 ? 0 : at % (out.length + 1);
      if (kind === 'insert') out = out.slice(0, i) + char + out.slice(i);
      else if (kind === 'delete') out = out.slice(0, i) + out.slice(i + 1);
      else if (kind === 'replace') out = out.slice(0, i) + char + out.slice(i + 1);
      else out = out.slice(0, i) + out.slice(Math.max(0, i - 3), i) + out.slice(i);
    }
    return out;
  });

/** ipaddr.js validity, restricted to the forms where it is strict. */
function oracleStrictValid(text: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text);
}

// A dotted IPv4 tail inside IPv6 text, when present, must itself be strict for ipaddr.js to be a
// strict oracle.
function hasStrictTail(text: string): boolean {
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  return !tail.includes('.') || ipaddr.IPv4.isValidFourPartDecimal(tail);
}

describe('rejection of malformed input', () => {
  it('what ipaddr.js rejects (strict four-part IPv4, IPv6) is rejected too', () => {
    fc.assert(
      fc.property(mutatedArb, (text) => {
        if (!oracleStrictValid(text)) expect(parseIpAddress(text)).toBeUndefined();
      }),
      { numRuns: 3000 },
    );
  });

  it('what is accepted, ipaddr.js accepts with the same value (bar the documented `::a.b.c.d`)', () => {
    fc.assert(
      fc.property(mutatedArb, (text) => {
        const ours = parseIpAddress(text);
        if (ours === undefined) return;
        expect(oracleStrictValid(text)).toBe(true);
        if (isIpv4CompatibleSpelling(text)) return;
        expect(Array.from(ours.bytes)).toEqual(oracleAddress(text).toByteArray());
      }),
      { numRuns: 3000 },
    );
  });

  it('what ipaddr.js accepts without a zone id or a lax IPv4 tail is accepted too', () => {
    fc.assert(
      fc.property(mutatedArb, (text) => {
        if (oracleStrictValid(text) && !text.includes('%') && hasStrictTail(text)) {
          expect(parseIpAddress(text)).toBeDefined();
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('surrounding whitespace or a zone id is always refused', () => {
    fc.assert(
      fc.property(anyAddressArb, fc.constantFrom(' ', '\t', '\n', '\r', '%eth0', '%1'), fc.boolean(), (address, extra, before) => {
        const isZone = extra.startsWith('%');
        const text = before && !isZone ? extra + address.text : address.text + extra;
        expect(parseIpAddress(text)).toBeUndefined();
      }),
      RUNS,
    );
  });

  it('IPv6 with a group of five or more hex digits is refused', () => {
    fc.assert(
      fc.property(ipv6Arb, fc.nat(7), fc.integer({ min: 5, max: 8 }), ({ groups }, at, digits) => {
        const parts = groups.map((g) => g.toString(16));
        parts[at] = 'a'.repeat(digits);
        expect(parseIpAddress(parts.join(':'))).toBeUndefined();
      }),
      RUNS,
    );
  });
});
