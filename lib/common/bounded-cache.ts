/** How many of the oldest entries an insert inspects for staleness; small so inserts stay O(1). */
const SWEEP_PER_INSERT = 2;

/**
 * Options of {@link BoundedCache}.
 *
 * @example
 * const options: BoundedCacheOptions<Entry> = { maxEntries: 10_000, staleAt: (entry) => entry.expiresAtMs, order: 'lru' };
 */
export interface BoundedCacheOptions<V> {
  /** At most this many entries; inserting into a full cache evicts the oldest (see `order`). */
  readonly maxEntries: number;
  /** The first millisecond a value must not be served any more. */
  readonly staleAt: (value: V) => number;
  /**
   * `lru`: a hit makes its entry the youngest, so eviction drops the least recently used.
   * `fifo` (default): insertion order only, right when every entry lives equally long (the
   * oldest insert is then also the first to go stale).
   */
  readonly order?: 'lru' | 'fifo';
}

/**
 * A bounded in-memory cache with a staleness time per entry: what Tessera keeps of verified
 * tokens and of API-key records. A stale entry is never served (dropped when read with the
 * time), the two oldest entries are swept on each insert, and the oldest are evicted when full,
 * so memory stays bounded whatever callers insert. `deleteWhere` drops entries by content (a
 * revoked key, every token of a subject).
 *
 * @example
 * const cache = new BoundedCache<string, Record>({ maxEntries: 1_000, staleAt: (r) => r.staleAtMs });
 * cache.set(id, record, clock.now());
 * cache.get(id, clock.now()); // record, until record.staleAtMs
 */
export class BoundedCache<K, V> {
  readonly maxEntries: number;
  readonly #staleAt: (value: V) => number;
  readonly #lru: boolean;
  readonly #entries = new Map<K, V>();
  /** LRU only: the youngest key, which a hit need not move (a client resending the same token). */
  #youngest: K | undefined = undefined;

  constructor(options: BoundedCacheOptions<V>) {
    if (!Number.isSafeInteger(options.maxEntries) || options.maxEntries < 1) throw new RangeError('BoundedCache maxEntries must be a positive integer');
    this.maxEntries = options.maxEntries;
    this.#staleAt = options.staleAt;
    this.#lru = options.order === 'lru';
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * The value for `key`, or undefined. With `nowMs`, a stale value is dropped and not returned;
   * without it, staleness is the caller's check (the token verifier re-checks its window itself).
   */
  get(key: K, nowMs?: number): V | undefined {
    const entries = this.#entries;
    const value = entries.get(key);
    if (value === undefined) return undefined;
    if (nowMs !== undefined && this.#staleAt(value) <= nowMs) {
      this.delete(key);
      return undefined;
    }
    if (this.#lru && key !== this.#youngest) {
      // Re-inserting moves the key to the young end of the Map's insertion order.
      entries.delete(key);
      entries.set(key, value);
      this.#youngest = key;
    }
    return value;
  }

  /** Stores a value as the youngest entry, sweeping stale old entries and evicting the oldest when full. */
  set(key: K, value: V, nowMs: number): void {
    const entries = this.#entries;
    entries.delete(key);
    let inspected = 0;
    for (const [old, oldValue] of entries) {
      if (inspected++ >= SWEEP_PER_INSERT) break;
      if (this.#staleAt(oldValue) <= nowMs) entries.delete(old);
    }
    while (entries.size >= this.maxEntries) {
      const oldest = entries.keys().next();
      if (oldest.done === true) break;
      entries.delete(oldest.value);
    }
    entries.set(key, value);
    this.#youngest = key;
  }

  delete(key: K): boolean {
    if (key === this.#youngest) this.#youngest = undefined;
    return this.#entries.delete(key);
  }

  /** Drops every entry whose value (or key) matches; returns how many. */
  deleteWhere(matches: (value: V, key: K) => boolean): number {
    let dropped = 0;
    for (const [key, value] of this.#entries) {
      if (!matches(value, key)) continue;
      this.delete(key);
      dropped++;
    }
    return dropped;
  }

  clear(): void {
    this.#entries.clear();
    this.#youngest = undefined;
  }
}
