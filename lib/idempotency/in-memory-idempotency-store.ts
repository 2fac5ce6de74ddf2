import { checkedClock, systemClock, type Clock } from '../common/clock.js';
import { integerAtLeast } from '../common/integer-at-least.js';
import type { IdempotencyClaim, IdempotencyStore } from './idempotency-store.js';

/**
 * Options of {@link InMemoryIdempotencyStore}.
 *
 * @example
 * const options: InMemoryIdempotencyStoreOptions = { clock: createManualClock(0), maxEntries: 1_000 };
 */
export interface InMemoryIdempotencyStoreOptions {
  /** Default the system clock; a manual clock lets tests expire claims and answers without sleeping. */
  readonly clock?: Clock | undefined;
  /**
   * Most claims and answers kept (default 10,000). Past it, expired entries go first, then the
   * oldest: a retry of an evicted key runs its handler again, so size it above the keys one TTL sees.
   */
  readonly maxEntries?: number | undefined;
}

interface Entry {
  readonly fingerprint: string;
  readonly token: string;
  answer: string | undefined;
  expiresAtMs: number;
}

/**
 * An {@link IdempotencyStore} in this process's memory: for tests, demos and an app that runs as
 * one process (a second instance would not see its answers). Each operation is synchronous under
 * its promise, so concurrent claims of one id are decided one at a time.
 *
 * @example
 * const store = new InMemoryIdempotencyStore();
 * createApp(AppModule, { providers: [{ provide: IDEMPOTENCY_STORE, useValue: store }] });
 */
export class InMemoryIdempotencyStore implements IdempotencyStore {
  readonly #entries = new Map<string, Entry>();
  readonly #clock: Clock;
  readonly #maxEntries: number;

  constructor(options: InMemoryIdempotencyStoreOptions = {}) {
    this.#clock = checkedClock(options.clock ?? systemClock);
    this.#maxEntries = integerAtLeast(options.maxEntries ?? 10_000, 1, 'maxEntries');
  }

  async claim(id: string, fingerprint: string, lockMs: number): Promise<IdempotencyClaim> {
    const now = this.#clock.now();
    const held = this.#entries.get(id);
    if (held !== undefined && held.expiresAtMs > now) {
      return held.answer === undefined ? { state: 'running', fingerprint: held.fingerprint } : { state: 'completed', fingerprint: held.fingerprint, answer: held.answer };
    }
    this.#entries.delete(id);
    this.#makeRoom(now);
    const token = crypto.randomUUID();
    this.#entries.set(id, { fingerprint, token, answer: undefined, expiresAtMs: now + lockMs });
    return { state: 'claimed', token };
  }

  async complete(id: string, token: string, answer: string, ttlMs: number): Promise<boolean> {
    const held = this.#entries.get(id);
    if (held === undefined || held.token !== token || held.answer !== undefined) return false;
    held.answer = answer;
    held.expiresAtMs = this.#clock.now() + ttlMs;
    return true;
  }

  async release(id: string, token: string): Promise<boolean> {
    const held = this.#entries.get(id);
    if (held === undefined || held.token !== token || held.answer !== undefined) return false;
    this.#entries.delete(id);
    return true;
  }

  /** How many claims and answers are kept, expired ones not yet dropped included. */
  get size(): number {
    return this.#entries.size;
  }

  #makeRoom(now: number): void {
    if (this.#entries.size < this.#maxEntries) return;
    for (const [id, entry] of this.#entries) if (entry.expiresAtMs <= now) this.#entries.delete(id);
    // Map order is insertion order: the first entries are the oldest claims.
    for (const id of this.#entries.keys()) {
      if (this.#entries.size < this.#maxEntries) break;
      this.#entries.delete(id);
    }
  }
}
