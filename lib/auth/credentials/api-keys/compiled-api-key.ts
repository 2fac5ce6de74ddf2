import { compileAllowedCidrs } from '../../../internal/client-policies.js';
import type { AllowedCidrs } from '../../../internal/client-policies.js';
import type { ApiKeyRecord } from './api-key-record.js';

/**
 * A stored record checked and converted once, ready for request-time decisions: the expected
 * digest as bytes, moments as milliseconds, the network list compiled. This is what the cache
 * holds, so a cache hit repeats none of the conversion (but still every decision).
 *
 * @example
 * const compiled = compileApiKeyRecord(id, await store.find(id));
 */
export interface CompiledApiKey {
  readonly id: string;
  /** SHA-256 of the secret, 32 bytes, decoded from `secretHash`. */
  readonly secretDigest: Uint8Array;
  readonly claims: unknown;
  readonly scopes: readonly string[];
  /** First millisecond the key is refused; `Infinity` when it never expires. */
  readonly expiresAtMs: number;
  /** First millisecond the key is refused as revoked; `Infinity` when not revoked. */
  readonly revokedAtMs: number;
  readonly allowedCidrs: AllowedCidrs;
}

/**
 * The record could not be read safely: the store returned something that is not a valid
 * {@link ApiKeyRecord} for the requested id (wrong id, a `secretHash` that is not 64 hex digits,
 * a moment that is not a valid Date, scopes that are not strings, or a malformed network). Like a
 * throwing store this means the key's state cannot be told: 503, never let through.
 *
 * @example
 * if (compiled === UNREADABLE_RECORD) return API_KEY_UNAVAILABLE;
 */
export const UNREADABLE_RECORD: unique symbol = Symbol('unreadable API key record');

/**
 * Checks and compiles what `store.find(id)` returned: `undefined` when there is no record,
 * {@link UNREADABLE_RECORD} when it is malformed, else the compiled key. Never throws.
 *
 * Strict on purpose: a lenient reading of a bad expiry or revocation (an `Invalid Date` compares
 * false with everything) would turn a revoked key back on, and a guessed network could widen access.
 *
 * @example
 * compileApiKeyRecord(id, null);                     // undefined
 * compileApiKeyRecord(id, { ...record, id: 'other' }); // UNREADABLE_RECORD
 */
export function compileApiKeyRecord(
  id: string,
  record: ApiKeyRecord | null | undefined,
): CompiledApiKey | typeof UNREADABLE_RECORD | undefined {
  if (record === null || record === undefined) return undefined;
  if (typeof record !== 'object' || record.id !== id) return UNREADABLE_RECORD;
  const secretDigest = decodeHexDigest(record.secretHash);
  const expiresAtMs = readMoment(record.expiresAt);
  const revokedAtMs = readMoment(record.revokedAt);
  const scopes = readScopes(record.scopes);
  if (secretDigest === undefined || expiresAtMs === undefined || revokedAtMs === undefined || scopes === undefined) {
    return UNREADABLE_RECORD;
  }
  let allowedCidrs: AllowedCidrs;
  try {
    // Throws MalformedStoredCidrError for a bad stored network (or a non-array list).
    allowedCidrs = compileAllowedCidrs(record.allowedCidrs);
  } catch {
    return UNREADABLE_RECORD;
  }
  return Object.freeze({ id, secretDigest, claims: record.claims, scopes, expiresAtMs, revokedAtMs, allowedCidrs });
}

const DIGEST_BYTES = 32;

/** Strict hex of exactly 32 bytes, either case; anything else is `undefined`. */
function decodeHexDigest(text: unknown): Uint8Array | undefined {
  if (typeof text !== 'string' || text.length !== DIGEST_BYTES * 2) return undefined;
  const out = new Uint8Array(DIGEST_BYTES);
  for (let i = 0; i < DIGEST_BYTES; i++) {
    const high = hexValue(text.charCodeAt(2 * i));
    const low = hexValue(text.charCodeAt(2 * i + 1));
    if ((high | low) < 0) return undefined;
    out[i] = (high << 4) | low;
  }
  return out;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** Missing or null means "never" (`Infinity`); a valid Date its time; anything else `undefined`. */
function readMoment(value: unknown): number | undefined {
  if (value === null || value === undefined) return Infinity;
  if (!(value instanceof Date)) return undefined;
  const ms = value.getTime();
  return Number.isNaN(ms) ? undefined : ms;
}

/** Missing means none; an array of strings is copied and frozen; anything else `undefined`. */
function readScopes(value: unknown): readonly string[] | undefined {
  if (value === null || value === undefined) return Object.freeze([]);
  if (!Array.isArray(value)) return undefined;
  const scopes: string[] = [];
  for (const scope of value as unknown[]) {
    if (typeof scope !== 'string') return undefined;
    scopes.push(scope);
  }
  return Object.freeze(scopes);
}
