import { cidrContains, formatCidr, parseCidr } from './cidr.js';
import type { CidrNetwork } from './cidr.js';
import { InvalidCidrError, MalformedStoredCidrError } from './cidr-errors.js';
import { parseIpAddress } from './ip-address.js';
import type { IpAddress } from './ip-address.js';

/**
 * Validates the `allowedCidrs` given when a key is created and returns them in canonical form,
 * ready to store. Throws {@link CidrHostBitsError} (with the network probably meant) or
 * {@link InvalidCidrError} for the first bad entry; both are the user's input error (400).
 * `null`, `undefined` and `[]` all mean "any address" and return `[]`.
 *
 * @example
 * parseAllowedCidrs(['10.0.0.0/8', '2001:DB8::/32']); // ['10.0.0.0/8', '2001:db8::/32']
 * parseAllowedCidrs(['10.1.2.3/24']);                 // throws CidrHostBitsError ('10.1.2.0/24')
 */
export function parseAllowedCidrs(list: readonly string[] | null | undefined): string[] {
  if (list === null || list === undefined) return [];
  if (!Array.isArray(list)) {
    throw new InvalidCidrError(String(list), 'allowed networks must be a list');
  }
  return list.map((entry) => formatCidr(parseCidr(entry)));
}

/**
 * The network restriction of one API key, compiled for request time.
 *
 * @example
 * const allowed: AllowedCidrs = compileAllowedCidrs(record.allowedCidrs);
 * if (!allowed.allows(clientAddress)) throw new UnauthorizedException('Invalid API key');
 */
export interface AllowedCidrs {
  /** False when the key accepts any address (no list, or an empty one). */
  readonly restricted: boolean;
  /**
   * Whether a request from `address` may use the key. An unrestricted key allows every request,
   * even one whose address is unknown. A restricted key refuses an unknown (`undefined`) or
   * unparsable address: when the address cannot be determined the answer is no (SPEC 11).
   */
  allows(address: IpAddress | string | undefined): boolean;
}

const UNRESTRICTED: AllowedCidrs = Object.freeze({
  restricted: false,
  allows: () => true,
});

/**
 * Compiles a key record's stored `allowedCidrs` once, for matching at request time.
 *
 * Throws {@link MalformedStoredCidrError} (never {@link InvalidCidrError}) when any stored entry is
 * not a valid network, host bits included: such a record was not written by
 * {@link parseAllowedCidrs}, and guessing what it meant could widen access. The guard must
 * answer 503 for it and never let the request through. Callers that cache records may cache the
 * compiled value beside them.
 *
 * @example
 * const allowed = compileAllowedCidrs(['10.0.0.0/8']);
 * allowed.allows('::ffff:10.1.1.1'); // true
 * allowed.allows(undefined);         // false
 * compileAllowedCidrs(['10.0.0.0/33']); // throws MalformedStoredCidrError
 */
export function compileAllowedCidrs(list: readonly string[] | null | undefined): AllowedCidrs {
  if (list === null || list === undefined) return UNRESTRICTED;
  if (!Array.isArray(list)) {
    throw new MalformedStoredCidrError(-1, new TypeError('allowedCidrs is not an array'));
  }
  if (list.length === 0) return UNRESTRICTED;
  const networks = compileStoredNetworks(list);
  return Object.freeze({
    restricted: true,
    allows(address: IpAddress | string | undefined): boolean {
      if (address === undefined) return false;
      const parsed = typeof address === 'string' ? parseIpAddress(address) : address;
      return parsed !== undefined && containsAny(networks, parsed);
    },
  });
}

/**
 * True when any network in the list contains the address.
 *
 * @example
 * containsAny([parseCidr('10.0.0.0/8')], parseIpAddress('10.1.2.3')!); // true
 */
export function containsAny(networks: readonly CidrNetwork[], address: IpAddress): boolean {
  for (const network of networks) {
    if (cidrContains(network, address)) return true;
  }
  return false;
}

function compileStoredNetworks(list: readonly string[]): readonly CidrNetwork[] {
  const networks: CidrNetwork[] = [];
  for (let index = 0; index < list.length; index++) {
    try {
      networks.push(parseCidr(list[index] as string));
    } catch (error) {
      throw new MalformedStoredCidrError(index, error);
    }
  }
  return Object.freeze(networks);
}
