// Generators shared by the network property tests. Addresses are generated as numbers first
// (groups or octets) and only then written as text, in the many spellings the standards allow,
// so each test knows the true value independently of the parser under test.
import fc from 'fast-check';

/** An IPv4 address as four octets. */
export type Octets = readonly [number, number, number, number];
/** An IPv6 address as eight 16-bit groups. */
export type Groups = readonly [number, number, number, number, number, number, number, number];

const octet = fc.integer({ min: 0, max: 255 });
// Zero groups are over-represented so that `::` compression has runs to choose between.
const group = fc.oneof(
  { weight: 2, arbitrary: fc.constant(0) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 0xff }) },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 0xffff }) },
);

export const octetsArb: fc.Arbitrary<Octets> = fc.tuple(octet, octet, octet, octet);

export const groupsArb: fc.Arbitrary<Groups> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(group, group, group, group, group, group, group, group) },
  // IPv4-mapped and IPv4-compatible neighbourhoods, where parsers most often disagree.
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(0, 0xffff, 0xfffe, 1), fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0, max: 0xffff }))
      .map(([marker, hi, lo]): Groups => [0, 0, 0, 0, 0, marker, hi, lo]),
  },
);

export function writeOctets(o: Octets): string {
  return o.join('.');
}

/** The canonical-agnostic text of `groups` in one of its valid spellings. */
export interface Ipv6Spelling {
  readonly compressStart: number; // -1 for no `::`
  readonly compressLength: number;
  readonly padding: readonly number[]; // extra leading zeros per group
  readonly upper: readonly boolean[];
  readonly ipv4Tail: boolean;
}

export function ipv6SpellingArb(groups: Groups): fc.Arbitrary<Ipv6Spelling> {
  const zeroRuns: Array<[number, number]> = [];
  for (let start = 0; start < 8; start++) {
    for (let end = start; end < 8 && groups[end] === 0; end++) zeroRuns.push([start, end - start + 1]);
  }
  const run = zeroRuns.length === 0 ? fc.constant<[number, number]>([-1, 0]) : fc.oneof(fc.constant<[number, number]>([-1, 0]), fc.constantFrom(...zeroRuns));
  return fc
    .record({
      run,
      padding: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 8, maxLength: 8 }),
      upper: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
      ipv4Tail: fc.boolean(),
    })
    .map(({ run: [compressStart, compressLength], padding, upper, ipv4Tail }) => ({
      compressStart,
      compressLength,
      padding,
      upper,
      // A dotted tail replaces groups 6 and 7, so they must not be inside the `::`.
      ipv4Tail: ipv4Tail && (compressStart === -1 || compressStart + compressLength <= 6),
    }));
}

export function writeGroups(groups: Groups, spelling: Ipv6Spelling): string {
  const parts: string[] = [];
  const last = spelling.ipv4Tail ? 6 : 8;
  for (let g = 0; g < last; g++) {
    if (g === spelling.compressStart) {
      parts.push(g === 0 ? ':' : '');
      g += spelling.compressLength - 1;
      if (g === 7) parts.push('');
      continue;
    }
    let text = (groups[g] ?? 0).toString(16);
    text = '0'.repeat(Math.min(spelling.padding[g] ?? 0, 4 - text.length)) + text;
    parts.push(spelling.upper[g] === true ? text.toUpperCase() : text);
  }
  if (spelling.ipv4Tail) {
    const hi = groups[6] ?? 0;
    const lo = groups[7] ?? 0;
    parts.push(`${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`);
  }
  return parts.join(':');
}

/** An IPv6 address with one arbitrary valid spelling. */
export const ipv6Arb: fc.Arbitrary<{ groups: Groups; text: string }> = groupsArb.chain((groups) =>
  ipv6SpellingArb(groups).map((spelling) => ({ groups, text: writeGroups(groups, spelling) })),
);

/** Any address: IPv4 octets or IPv6 groups, with a valid spelling. */
export type AnyAddress =
  | { readonly version: 4; readonly octets: Octets; readonly text: string }
  | { readonly version: 6; readonly groups: Groups; readonly text: string };

export const anyAddressArb: fc.Arbitrary<AnyAddress> = fc.oneof(
  octetsArb.map((octets): AnyAddress => ({ version: 4, octets, text: writeOctets(octets) })),
  ipv6Arb.map(({ groups, text }): AnyAddress => ({ version: 6, groups, text })),
);

/** The spellings of the IPv4-mapped IPv6 form of an IPv4 address. */
export function mappedSpellings(o: Octets): string[] {
  const hi = ((o[0] << 8) | o[1]).toString(16);
  const lo = ((o[2] << 8) | o[3]).toString(16);
  return [
    `::ffff:${writeOctets(o)}`,
    `::FFFF:${writeOctets(o)}`,
    `0:0:0:0:0:ffff:${writeOctets(o)}`,
    `::ffff:${hi}:${lo}`,
    `0::ffff:${hi.padStart(4, '0')}:${lo.padStart(4, '0')}`,
  ];
}

/** The eight groups of a 128-bit value. */
export function groupsFromValue(value: bigint): Groups {
  const g: number[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) g.push(Number((value >> shift) & 0xffffn));
  return g as unknown as Groups;
}

export function valueFromGroups(groups: Groups): bigint {
  let value = 0n;
  for (const g of groups) value = (value << 16n) | BigInt(g);
  return value;
}

export function octetsFromValue(value: bigint): Octets {
  const v = Number(value);
  return [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];
}

export function valueFromOctets(o: Octets): bigint {
  return BigInt(((o[0] << 24) >>> 0) + (o[1] << 16) + (o[2] << 8) + o[3]);
}

/** Prefix lengths with the boundaries over-represented. */
export function prefixArb(max: 32 | 128): fc.Arbitrary<number> {
  const edges = max === 32 ? [0, 1, 7, 8, 9, 16, 24, 31, 32] : [0, 1, 8, 32, 64, 95, 96, 97, 104, 120, 127, 128];
  return fc.oneof(fc.constantFrom(...edges), fc.integer({ min: 0, max }));
}
