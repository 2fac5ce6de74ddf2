import { BoundedCache } from '../../../internal/primitives.js';
import type { CompiledApiKey } from './compiled-api-key.js';

interface CacheEntry {
  readonly key: CompiledApiKey;
  /** First millisecond the entry must not be served. */
  readonly staleAtMs: number;
}

/**
 * The in-process cache of found key records (`cacheSeconds`), keyed by key id.
 *
 * What it caches and why it is safe:
 * - Only records the store found (and that compiled). "Not found" is never cached, so a key
 *   created after a miss works at once, and requests with random ids cannot fill the cache:
 *   its size is bounded by the number of real keys, and by `maxEntries` on top.
 * - The record, not the decision. Every hit still runs the constant-time secret comparison, the
 *   expiry, revocation, network and claims checks, so a cached record never accepts a wrong secret
 *   and an `expiresAt` passes on time. Only a revocation made in the store can go unseen, for at
 *   most `ttlMs` (SPEC "States and transitions / API key").
 * - Keyed by id, which is not secret, so the Map lookup not being constant-time leaks nothing.
 *
 * Eviction is first-in-first-out (a {@link BoundedCache} in `fifo` order): with one fixed
 * time-to-live the oldest insert is also the first to go stale, so FIFO drops the entry closest
 * to expiry anyway.
 *
 * @example
 * const cache = new ApiKeyRecordCache(60_000, 10_000);
 * cache.set(compiled, clock.now());
 * cache.get(id, clock.now()); // compiled, until 60 s have passed
 */
export class ApiKeyRecordCache {
  readonly ttlMs: number;
  readonly #cache: BoundedCache<string, CacheEntry>;

  constructor(ttlMs: number, maxEntries: number) {
    if (!(ttlMs > 0) || !Number.isFinite(ttlMs)) throw new RangeError('ApiKeyRecordCache ttlMs must be a positive number');
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError('ApiKeyRecordCache maxEntries must be a positive integer');
    }
    this.ttlMs = ttlMs;
    this.#cache = new BoundedCache({ maxEntries, staleAt: (entry) => entry.staleAtMs });
  }

  get maxEntries(): number {
    return this.#cache.maxEntries;
  }

  get size(): number {
    return this.#cache.size;
  }

  /** The cached key for `id`, or `undefined` when absent or stale (a stale entry is dropped). */
  get(id: string, nowMs: number): CompiledApiKey | undefined {
    return this.#cache.get(id, nowMs)?.key;
  }

  /** Caches a found key for `ttlMs` from `nowMs`, evicting the oldest entries when full. */
  set(key: CompiledApiKey, nowMs: number): void {
    this.#cache.set(key.id, { key, staleAtMs: nowMs + this.ttlMs }, nowMs);
  }

  /** Drops the record of one key (revoked), so the next request reads the store. */
  delete(id: string): boolean {
    return this.#cache.delete(id);
  }

  clear(): void {
    this.#cache.clear();
  }
}
