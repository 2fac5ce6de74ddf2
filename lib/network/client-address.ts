import { containsAny } from './allowed-cidrs.js';
import type { CidrNetwork } from './cidr.js';
import { formatIpAddress } from './format-ip-address.js';
import { parseIpAddress } from './ip-address.js';
import type { IpAddress } from './ip-address.js';
import { compileTrustedProxyNetworks } from './trusted-proxy.js';
import type { TrustedProxyMatcher } from './trusted-proxy.js';

/**
 * How the app decides a request's client address: `createApp(root, { clientAddress })`, the
 * app's one trusted-proxy rule (Fastify's `trustProxy`). `ctx.clientAddress` is the address it
 * gives, and everything reads that: API keys' `allowedCidrs`, sign-in throttling, sessions,
 * logs, the application's own rate limits.
 *
 * @example
 * const app = await createApp(AppModule, { clientAddress: { trustedProxyHops: 1, isTrustedProxy: ['10.0.0.0/8'] } });
 */
export interface ClientAddressOptions {
  /**
   * How many proxies of the application's own stand between the client and this server, each
   * appending to `X-Forwarded-For`. 0 (the default) means the socket peer is the client.
   */
  readonly trustedProxyHops?: number;
  /**
   * Which addresses are the application's own proxies: a function given canonical address text,
   * or a list of networks (`/32` for one host), compiled once. Without it any socket peer is
   * assumed to be a proxy, so a client that reaches the server directly can choose its address.
   */
  readonly isTrustedProxy?: TrustedProxyMatcher | readonly string[];
}

/**
 * What the runtime knows about one request.
 *
 * @example
 * const input: ClientAddressInput = {
 *   socketAddress: '10.0.0.5',
 *   forwardedFor: request.headers.get('x-forwarded-for'),
 * };
 */
export interface ClientAddressInput {
  /** The TCP peer address as the runtime reports it; `undefined` for an in-process call. */
  readonly socketAddress: string | undefined;
  /** Every `X-Forwarded-For` value, comma-joined (as `Headers.get` returns them); null if absent. */
  readonly forwardedFor: string | null | undefined;
}

/**
 * Returns the client's canonical address, or `undefined` when it cannot be determined.
 *
 * @example
 * const reader: ClientAddressReader = createClientAddressReader();
 * reader({ socketAddress: '::ffff:192.0.2.7', forwardedFor: null }); // '192.0.2.7'
 */
export type ClientAddressReader = (input: ClientAddressInput) => string | undefined;

type InternalMatcher = (address: IpAddress) => boolean;

/**
 * Creates the reader that decides a request's client address (`createApp` compiles the app's
 * `clientAddress` option into one; `ctx.clientAddress` is its answer).
 * Security-relevant: the exact rules, in order.
 *
 * Definitions. An address is valid only in the strict form of {@link parseIpAddress} (no ports,
 * brackets, zone ids or `unknown`); the result and every address given to `isTrustedProxy` are
 * canonical text ({@link formatIpAddress}), IPv4-mapped IPv6 read as IPv4. `X-Forwarded-For`
 * entries are separated by commas; spaces and tabs around an entry are ignored; an empty entry is
 * invalid. N is `trustedProxyHops`.
 *
 * 1. No socket address, or one that is not valid: `undefined`. Nothing else is consulted, so an
 *    in-process call cannot claim an address through a header.
 * 2. N = 0: the socket address is the client. `X-Forwarded-For` is ignored entirely.
 * 3. N > 0 and `isTrustedProxy` is given and says the socket address is NOT a proxy: the client
 *    reached the server directly, bypassing the proxies; the socket address is the client and
 *    `X-Forwarded-For` (which the client wrote itself) is ignored.
 * 4. Otherwise the socket peer is the nearest proxy. Each of the N proxies appended one entry
 *    to the right end of `X-Forwarded-For`: the address of whoever connected to it. Entries are
 *    read from the right, hop k = 1..N reading the k-th entry from the right:
 *    a. if there is no k-th entry, or it is not a valid address: `undefined`;
 *    b. if k = N: that entry is the client;
 *    c. if k < N and `isTrustedProxy` is given and says the entry is NOT a proxy: that entry is
 *       the client (it connected straight to proxy k, skipping the inner ones);
 *    d. otherwise the entry is another proxy: go on to hop k + 1.
 *    Entries left of the one chosen were supplied by the client or by proxies not counted in N
 *    and are never read.
 *
 * Consequences: with N equal to the real number of proxies the result is the address the
 * outermost proxy saw, which the client cannot forge. With N too large and no `isTrustedProxy`,
 * the result can come from the client's own header: configure N exactly, and give
 * `isTrustedProxy` so rules 3 and 4c catch a bypassing client. `undefined` makes a key with
 * `allowedCidrs` refused (fail closed). The `Forwarded` header (RFC 7239) is not read.
 * An `isTrustedProxy` function that throws is not caught.
 *
 * Throws at creation when `trustedProxyHops` is not a non-negative integer, or when a network in
 * an `isTrustedProxy` list is invalid ({@link InvalidCidrError}, {@link CidrHostBitsError}).
 *
 * @example
 * const read = createClientAddressReader({ trustedProxyHops: 1, isTrustedProxy: ['10.0.0.0/8'] });
 * read({ socketAddress: '10.0.0.5', forwardedFor: '6.6.6.6, 203.0.113.9' });  // '203.0.113.9'
 * read({ socketAddress: '198.51.100.4', forwardedFor: '203.0.113.9' });       // '198.51.100.4'
 * read({ socketAddress: '10.0.0.5', forwardedFor: null });                    // undefined
 */
export function createClientAddressReader(options: ClientAddressOptions = {}): ClientAddressReader {
  const hops = options.trustedProxyHops ?? 0;
  if (!Number.isSafeInteger(hops) || hops < 0) {
    throw new RangeError('clientAddress.trustedProxyHops must be a non-negative integer');
  }
  const isTrusted = compileMatcher(options.isTrustedProxy);

  return (input: ClientAddressInput): string | undefined => {
    const socketText = input.socketAddress;
    if (typeof socketText !== 'string') return undefined;
    const socket = parseIpAddress(socketText);
    if (socket === undefined) return undefined;
    if (hops === 0) return formatIpAddress(socket);
    if (isTrusted !== undefined && !isTrusted(socket)) return formatIpAddress(socket);

    const header = input.forwardedFor;
    if (typeof header !== 'string') return undefined;
    // `end` is the exclusive end of the next entry to read; -1 once the leftmost one is consumed.
    let end = header.length;
    for (let hop = 1; hop <= hops; hop++) {
      if (end < 0) return undefined;
      const comma = end === 0 ? -1 : header.lastIndexOf(',', end - 1);
      const entry = parseEntry(header, comma + 1, end);
      if (entry === undefined) return undefined;
      if (hop === hops || (isTrusted !== undefined && !isTrusted(entry))) return formatIpAddress(entry);
      end = comma;
    }
    return undefined; // unreachable: hops >= 1 always returns inside the loop
  };
}

/** Parses `header[start, end)` with surrounding spaces and tabs removed. */
function parseEntry(header: string, start: number, end: number): IpAddress | undefined {
  let from = start;
  let to = end;
  while (from < to && isOptionalWhitespace(header.charCodeAt(from))) from++;
  while (to > from && isOptionalWhitespace(header.charCodeAt(to - 1))) to--;
  if (from === to) return undefined;
  return parseIpAddress(header.slice(from, to));
}

function isOptionalWhitespace(c: number): boolean {
  return c === 32 || c === 9;
}

function compileMatcher(option: ClientAddressOptions['isTrustedProxy']): InternalMatcher | undefined {
  if (option === undefined) return undefined;
  if (typeof option === 'function') {
    return (address) => option(formatIpAddress(address)) === true;
  }
  const networks: readonly CidrNetwork[] = compileTrustedProxyNetworks(option);
  return (address) => containsAny(networks, address);
}
