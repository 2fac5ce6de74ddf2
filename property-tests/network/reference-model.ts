// Independent references for the network property tests:
// - a naive bigint model of addresses and networks, written from the RFC definitions;
// - thin wrappers over ipaddr.js (a dev-only oracle), used only where ipaddr.js is strict.
//
// Where ipaddr.js is NOT strict, and so is not used as an oracle (see the property tests):
// - IPv4: `IPv4.isValid`/`parse` accept octal, hex, 1-3 part and long forms (`0x7f.1`, `127.1`);
//   only `IPv4.isValidFourPartDecimal` is strict and matches our grammar exactly.
// - IPv6: accepts zone ids (`fe80::1%eth0`), accepts an embedded IPv4 tail with leading zeros or
//   hex parts (`::ffff:010.1.2.3`, `::ffff:0x10.1.2.3`), and reads the deprecated IPv4-compatible
//   `::a.b.c.d` as the mapped `::ffff:a.b.c.d` (RFC 4291 says it is `::a0b:c0d`).
// - CIDR: `parseCIDR` accepts prefixes with leading zeros (`/024`) and any IPv4 form above, and
//   keeps `::ffff:a.b.c.d/n` as an IPv6 network (we read it as IPv4 `/n-96`).
import ipaddr from 'ipaddr.js';
import type { Groups, Octets } from './network-arbitraries.js';

/** An address in the naive model: version and value. IPv4-mapped values are already IPv4. */
export interface ModelAddress {
  readonly version: 4 | 6;
  readonly value: bigint;
}

export interface ModelNetwork extends ModelAddress {
  readonly prefixLength: number;
}

export function modelFromOctets(o: Octets): ModelAddress {
  return { version: 4, value: BigInt(((o[0] << 24) >>> 0) + (o[1] << 16) + (o[2] << 8) + o[3]) };
}

export function modelFromGroups(groups: Groups): ModelAddress {
  let value = 0n;
  for (const g of groups) value = (value << 16n) | BigInt(g);
  if (value >> 32n === 0xffffn) return { version: 4, value: value & 0xffffffffn };
  return { version: 6, value };
}

function width(version: 4 | 6): bigint {
  return version === 4 ? 32n : 128n;
}

/** The value with every bit past `prefixLength` cleared. */
export function modelMask(address: ModelAddress, prefixLength: number): bigint {
  const hostBits = width(address.version) - BigInt(prefixLength);
  return (address.value >> hostBits) << hostBits;
}

export function modelContains(network: ModelNetwork, address: ModelAddress): boolean {
  return network.version === address.version && modelMask(address, network.prefixLength) === network.value;
}

/** Writes a model address in canonical text, computed from the RFC 5952 rules naively. */
export function modelFormat(address: ModelAddress): string {
  if (address.version === 4) {
    const v = address.value;
    return [24n, 16n, 8n, 0n].map((shift) => String((v >> shift) & 0xffn)).join('.');
  }
  const groups: number[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(Number((address.value >> shift) & 0xffffn));
  let best: [number, number] = [-1, 0];
  for (let start = 0; start < 8; start++) {
    let end = start;
    while (end < 8 && groups[end] === 0) end++;
    if (end - start >= 2 && end - start > best[1]) best = [start, end - start];
  }
  const hex = groups.map((g) => g.toString(16));
  if (best[0] === -1) return hex.join(':');
  return `${hex.slice(0, best[0]).join(':')}::${hex.slice(best[0] + best[1]).join(':')}`;
}

/**
 * The model network written as `address/prefix` with a 128-bit value, read the way SPEC 11 reads
 * mapped addresses: a network inside `::ffff:0:0/96` is the IPv4 network of prefix - 96.
 */
export function modelNetworkFromRaw(version: 4 | 6, rawValue: bigint, prefixLength: number): ModelNetwork {
  if (version === 6 && prefixLength >= 96 && rawValue >> 32n === 0xffffn) {
    return { version: 4, value: rawValue & 0xffffffffn, prefixLength: prefixLength - 96 };
  }
  return { version, value: rawValue, prefixLength };
}

/** ipaddr.js's reading of an address, mapped IPv6 turned to IPv4 (`process`). */
export function oracleAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 {
  return ipaddr.process(text);
}

/**
 * ipaddr.js's reading of a network, with our one deliberate difference applied: an IPv4-mapped
 * IPv6 network of prefix 96 or more is the IPv4 network of prefix - 96.
 */
export function oracleNetwork(text: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  const [address, prefixLength] = ipaddr.parseCIDR(text);
  if (address.kind() === 'ipv6' && prefixLength >= 96 && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    return [(address as ipaddr.IPv6).toIPv4Address(), prefixLength - 96];
  }
  return [address, prefixLength];
}

/** ipaddr.js membership; different kinds never match. */
export function oracleContains(network: [ipaddr.IPv4 | ipaddr.IPv6, number], address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (network[0].kind() !== address.kind()) return false;
  return address.match(network);
}

export { ipaddr };
