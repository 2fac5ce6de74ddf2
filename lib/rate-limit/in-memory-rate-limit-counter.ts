import { FixedWindowRule } from './fixed-window-rule.js';
import type { RateLimitCounterOptions, RateLimitWindow, WindowedRateLimitCounter } from './rate-limit-counter.js';

/** From this many keys on, a new key first drops the windows that have ended. */
const SWEEP_FROM_KEYS = 10_000;

/**
 * A fixed-window {@link RateLimitCounter} in this process's memory, for one instance (several
 * instances each count their own hits: share a budget with the PostgreSQL or Redis counter). The
 * same window as theirs (`FixedWindowRule`): the first hit of a key opens a window of `windowMs`;
 * up to `limit` hits in it are allowed (0); later ones answer the time left in the window. Each
 * hit is counted synchronously before its promise settles, so concurrent hits are all counted.
 *
 * @example
 * const counter = new InMemoryRateLimitCounter({ limit: 100, windowMs: 60_000 });
 * const waitMs = await counter.hit(keyId); // 0 while within the limit
 */
export class InMemoryRateLimitCounter implements WindowedRateLimitCounter {
  readonly #rule: FixedWindowRule;
  readonly #windows = new Map<string, { startMs: number; hits: number }>();
  #sweepAt = SWEEP_FROM_KEYS;

  constructor(options: RateLimitCounterOptions) {
    this.#rule = new FixedWindowRule(options);
  }

  async hit(key: string): Promise<number> {
    return this.#count(key).waitMs;
  }

  /**
   * Counts one request like `hit`, and answers the whole window: for `RateLimit-*` headers.
   *
   * @example
   * const { hits, resetAtMs, waitMs } = await counter.hitWindow(keyId);
   */
  async hitWindow(key: string): Promise<RateLimitWindow> {
    return this.#count(key);
  }

  /**
   * Takes back one hit counted by `hitWindow` (see `WindowedRateLimitCounter.release`).
   *
   * @example
   * const window = await counter.hitWindow(key);
   * await counter.release(key, window); // the count is as before the hit
   */
  async release(key: string, window: RateLimitWindow): Promise<void> {
    const current = this.#windows.get(key);
    if (current !== undefined && current.startMs === this.#rule.startOf(window) && current.hits > 0) current.hits -= 1;
  }

  #count(key: string): RateLimitWindow {
    const rule = this.#rule;
    const now = rule.now();
    let window = this.#windows.get(key);
    if (window === undefined) {
      if (this.#windows.size >= this.#sweepAt) this.#sweep(now);
      window = { startMs: now, hits: 0 };
      this.#windows.set(key, window);
    } else if (rule.ended(window.startMs, now)) {
      window.startMs = now;
      window.hits = 0;
    }
    window.hits += 1;
    return rule.windowAfter(window.hits, window.startMs, now);
  }

  /**
   * Drops the windows that have ended (their keys would open new ones anyway). The next sweep
   * waits until the map has doubled, so many live keys cost a scan per doubling, not per new key.
   */
  #sweep(now: number): void {
    for (const [key, window] of this.#windows) if (this.#rule.ended(window.startMs, now)) this.#windows.delete(key);
    this.#sweepAt = Math.max(SWEEP_FROM_KEYS, 2 * this.#windows.size);
  }
}
