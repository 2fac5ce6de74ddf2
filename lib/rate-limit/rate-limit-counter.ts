import type { Clock } from '../common/clock.js';

/**
 * A per-key request counter for application rate limits (the auth module has none of its own;
 * see SPEC "Rate limiting"). `hit(key)` counts one request for `key` and answers how many
 * milliseconds the caller must wait before the key is allowed again: 0 when the request is
 * within the limit. Implementations, all with the same fixed window (`FixedWindowRule`):
 * `InMemoryRateLimitCounter` for one process, and `PostgresRateLimitCounter` (from
 * `tessera-http/postgres`) and `RedisRateLimitCounter` (from `tessera-http/redis`), shared by every
 * instance on one database or Redis.
 *
 * @example
 * const waitMs = await counter.hit(apiKey.id);
 * if (waitMs > 0) throw new TooManyRequestsException('Over the limit', undefined, { 'retry-after': String(Math.ceil(waitMs / 1000)) });
 */
export interface RateLimitCounter {
  hit(key: string): Promise<number>;
}

/**
 * A {@link RateLimitCounter} that also answers the whole window of a hit and can take a hit back:
 * what sign-in throttling needs, which counts an attempt before checking the password (so that
 * concurrent guesses cannot all pass a check made before any of them was counted) and takes the
 * count back when the attempt turns out not to be a failure. Every counter Tessera ships is one.
 *
 * @example
 * const window = await counter.hitWindow(key);
 * if (window.waitMs > 0) throw new TooManyRequestsException('Slow down');
 * if (await succeeded()) await counter.release(key, window);
 */
export interface WindowedRateLimitCounter extends RateLimitCounter {
  /** Counts one hit like `hit`, and answers the whole window. */
  hitWindow(key: string): Promise<RateLimitWindow>;
  /**
   * Takes back one hit that `hitWindow` counted and answered as `window`: the key's count goes
   * down by one if that window is still the key's current one (same `resetAtMs`) and holds a hit;
   * otherwise (the window ended, a new one opened) nothing changes.
   */
  release(key: string, window: RateLimitWindow): Promise<void>;
}

/**
 * One key's window after a hit.
 *
 * @example
 * const window: RateLimitWindow = { hits: 3, resetAtMs: 1_700_000_060_000, waitMs: 0 };
 */
export interface RateLimitWindow {
  /** Hits counted in the current window, this one included. */
  readonly hits: number;
  /** When the current window ends (epoch ms); the next hit after it opens a new one. */
  readonly resetAtMs: number;
  /** 0 when this hit is within the limit, else ms until `resetAtMs`. */
  readonly waitMs: number;
}

/**
 * What every counter is built with; the PostgreSQL and Redis counters add their own options.
 *
 * @example
 * const options: RateLimitCounterOptions = { limit: 100, windowMs: 60_000 };
 */
export interface RateLimitCounterOptions {
  /** Requests allowed per key per window (0 refuses every request). */
  readonly limit: number;
  /** Window length, ms. */
  readonly windowMs: number;
  /** Default the system clock. Tests drive it; the engines are sent its time, not their own. */
  readonly clock?: Clock | undefined;
}
