import { AuthConfigError } from '../../shared/auth-config-error.js';
import { checkWindow } from './token-policy.js';
import { VerificationCache } from './verification-cache.js';
import type { VerificationCacheEntry, VerificationCacheStats } from './verification-cache.js';
import { FAILURES } from './verification-result.js';
import type { VerificationFailure, VerificationResult } from './verification-result.js';

/**
 * Longest token considered at all. Bounds the signature work an anonymous caller can demand and
 * the memory one cache entry can hold; 8 KiB is far above any realistic access token (~300 bytes
 * for own tokens, 1-2 KiB for an identity provider's RS256 token with its claims).
 *
 * @example
 * if (header.length > MAX_TOKEN_LENGTH + 7) throw new UnauthorizedException();
 */
export const MAX_TOKEN_LENGTH = 8192;

const DEFAULT_CACHE_ENTRIES = 10_000;

/**
 * The `cache` option of every verifier: `false` disables it; default `{ maxEntries: 10_000 }`.
 *
 * @example
 * const option: VerificationCacheOption = { maxEntries: 50_000 };
 */
export type VerificationCacheOption = false | { readonly maxEntries?: number | undefined } | undefined;

/**
 * What a full verification produced: the cache entry of a success, or a failure.
 *
 * @example
 * const outcome: VerificationOutcome = checkTokenClaims(payload, policy, nowMs);
 */
export type VerificationOutcome = VerificationCacheEntry | VerificationFailure;

/**
 * The part every verifier runs before and after its own checks: the size limit, the cache lookup
 * (with the time window re-checked against the current clock, by the same function the cold path
 * uses) and the caching of successes. Only successes are cached (see {@link VerificationCache}).
 *
 * @example
 * const hit = front.lookup(token, nowMs);
 * if (hit !== undefined) return hit;
 * return front.settle(token, verifyFully(token, nowMs), nowMs);
 */
export interface VerificationFront {
  /** A result reached without verifying (too long, or a cache hit), or undefined: verify it. */
  lookup(token: unknown, nowMs: number): VerificationResult | undefined;
  /** Caches a success and returns the result to hand out. */
  settle(token: string, outcome: VerificationOutcome, nowMs: number): VerificationResult;
  /** Drops the cached successes whose payload matches; returns how many. */
  forget(matches: (payload: Readonly<Record<string, unknown>>) => boolean): number;
  stats(): VerificationCacheStats;
}

/**
 * Creates the front for one verifier; a cache is never shared between verifiers with different
 * settings, or a token accepted by one would be served by the other.
 *
 * @example
 * const front = createVerificationFront({ maxEntries: 1000 });
 */
export function createVerificationFront(option: VerificationCacheOption): VerificationFront {
  const cache = createCache(option);
  return {
    lookup(token, nowMs) {
      // Checked before the cache lookup too, so an oversized header costs nothing, not even hashing.
      if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return FAILURES.malformed;
      const entry = cache?.get(token);
      if (entry === undefined) return undefined;
      const timeFailure = checkWindow(entry.validFromMs, entry.validUntilMs, nowMs);
      if (timeFailure === undefined) return entry.result;
      // An expired entry is useless from now on (if the clock is ever set back, the token is
      // simply verified from scratch). A not-yet-valid one may become valid; the LRU bounds it.
      if (timeFailure === FAILURES.expired) cache?.delete(token);
      return timeFailure;
    },
    settle(token, outcome, nowMs) {
      if (!('result' in outcome)) return outcome;
      cache?.set(token, outcome, nowMs);
      return outcome.result;
    },
    forget(matches) {
      return cache?.deleteWhere((entry) => matches(entry.result.payload)) ?? 0;
    },
    stats() {
      return cache?.stats() ?? { enabled: false, size: 0, maxEntries: 0, hits: 0, misses: 0 };
    },
  };
}

function createCache(option: VerificationCacheOption): VerificationCache | undefined {
  if (option === false) return undefined;
  const maxEntries = option?.maxEntries ?? DEFAULT_CACHE_ENTRIES;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw new AuthConfigError('cache.maxEntries must be a positive integer');
  }
  return new VerificationCache(maxEntries);
}
