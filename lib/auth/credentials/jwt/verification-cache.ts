import { BoundedCache } from '../../../internal/primitives.js';
import type { VerifiedToken } from './verification-result.js';

/**
 * What the cache remembers about a token that passed every check: the result to hand back and
 * the validity window (tolerance already applied), which the verifier re-checks against its clock
 * on every hit with the same function the cold path uses.
 *
 * @example
 * const entry: VerificationCacheEntry = { result, validFromMs: -Infinity, validUntilMs: exp * 1000 };
 */
export interface VerificationCacheEntry {
  readonly result: VerifiedToken;
  /** First instant (ms) the token may be used: `(nbf - tolerance) * 1000`, or -Infinity. */
  readonly validFromMs: number;
  /** First instant (ms) the token must be refused: `(exp + tolerance) * 1000`. */
  readonly validUntilMs: number;
}

/**
 * Counters for tests and metrics.
 *
 * @example
 * expect(verifier.stats().hits).toBe(1);
 */
export interface VerificationCacheStats {
  readonly enabled: boolean;
  readonly size: number;
  readonly maxEntries: number;
  readonly hits: number;
  readonly misses: number;
}

/**
 * A bounded least-recently-used map from the exact token string to its verification outcome.
 *
 * Keyed by the full token string: a Map compares keys by exact string equality, so a hit requires
 * the presented token to be character-for-character the one that was verified, signature included.
 * A Map lookup is not constant-time, but it cannot leak a cached token progressively: the content
 * comparison only runs after the full-string hash matches, and that hash depends on every character,
 * including the unknown signature, so a guess that shares a prefix gains nothing.
 *
 * Only successes are stored. Caching failures would let anyone fill the cache with garbage and
 * evict real entries, and would save little: a forged token costs one MAC to refuse. As a result,
 * only holders of the secret can create entries.
 *
 * Memory is bounded by `maxEntries` times the verifier's maximum token length (8 KiB; ~300 bytes
 * typically). Expired entries are never served (every hit re-checks the window) and are dropped
 * when hit, when they reach the old end of the LRU order at insert time, or on eviction.
 *
 * One cache per verifier, created by it: a cache shared between verifiers with different issuer
 * or audience settings would let a token accepted by one be served by the other.
 *
 * @example
 * const cache = new VerificationCache(10_000);
 * cache.set(token, entry, clock.now());
 * cache.get(token); // entry, moved to most recently used
 */
export class VerificationCache {
  readonly #cache: BoundedCache<string, VerificationCacheEntry>;
  #hits = 0;
  #misses = 0;

  constructor(maxEntries: number) {
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError('VerificationCache maxEntries must be a positive integer');
    }
    // Expired entries reach the old end of the LRU order and are swept at insert time.
    this.#cache = new BoundedCache({ maxEntries, staleAt: (entry) => entry.validUntilMs, order: 'lru' });
  }

  get maxEntries(): number {
    return this.#cache.maxEntries;
  }

  get size(): number {
    return this.#cache.size;
  }

  /** Returns the entry for exactly this token and marks it most recently used. */
  get(token: string): VerificationCacheEntry | undefined {
    // No time given: the verifier re-checks the window on every hit with its own clock.
    const entry = this.#cache.get(token);
    if (entry === undefined) this.#misses++;
    else this.#hits++;
    return entry;
  }

  /** Stores an entry, evicting the least recently used one when full. */
  set(token: string, entry: VerificationCacheEntry, nowMs: number): void {
    this.#cache.set(token, entry, nowMs);
  }

  delete(token: string): void {
    this.#cache.delete(token);
  }

  /** Drops every cached verification whose result matches (for example every token of a revoked subject). */
  deleteWhere(matches: (entry: VerificationCacheEntry) => boolean): number {
    return this.#cache.deleteWhere((entry) => matches(entry));
  }

  stats(): VerificationCacheStats {
    return { enabled: true, size: this.#cache.size, maxEntries: this.#cache.maxEntries, hits: this.#hits, misses: this.#misses };
  }
}
