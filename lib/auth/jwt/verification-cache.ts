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

/** How many of the oldest entries an insert inspects for expiry; small so inserts stay O(1). */
const SWEEP_PER_INSERT = 2;

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
  readonly maxEntries: number;
  #entries = new Map<string, VerificationCacheEntry>();
  /** The most recently used key: a hit on it is already in LRU position. */
  #newest: string | undefined = undefined;
  #hits = 0;
  #misses = 0;

  constructor(maxEntries: number) {
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError('VerificationCache maxEntries must be a positive integer');
    }
    this.maxEntries = maxEntries;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Returns the entry for exactly this token and marks it most recently used. */
  get(token: string): VerificationCacheEntry | undefined {
    const entry = this.#entries.get(token);
    if (entry === undefined) {
      this.#misses++;
      return undefined;
    }
    this.#hits++;
    // Re-inserting moves the key to the end of the Map's insertion order, which is the LRU order;
    // a client resending the newest token (the common case) needs no move.
    if (token !== this.#newest) {
      this.#entries.delete(token);
      this.#entries.set(token, entry);
      this.#newest = token;
    }
    return entry;
  }

  /** Stores an entry, evicting the least recently used one when full. */
  set(token: string, entry: VerificationCacheEntry, nowMs: number): void {
    const entries = this.#entries;
    entries.delete(token);
    let inspected = 0;
    for (const [key, old] of entries) {
      if (inspected++ >= SWEEP_PER_INSERT) break;
      if (old.validUntilMs <= nowMs) entries.delete(key);
    }
    while (entries.size >= this.maxEntries) {
      const oldest = entries.keys().next();
      if (oldest.done === true) break;
      entries.delete(oldest.value);
    }
    entries.set(token, entry);
    this.#newest = token;
  }

  delete(token: string): void {
    this.#entries.delete(token);
    if (token === this.#newest) this.#newest = undefined;
  }

  stats(): VerificationCacheStats {
    return { enabled: true, size: this.#entries.size, maxEntries: this.maxEntries, hits: this.#hits, misses: this.#misses };
  }
}
