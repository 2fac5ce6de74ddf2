import { checkedClock, systemClock, type Clock } from '../common/clock.js';
import { integerAtLeast } from '../common/integer-at-least.js';
import type { RateLimitCounterOptions, RateLimitWindow } from './rate-limit-counter.js';

/**
 * The fixed-window rule every `RateLimitCounter` applies, written once: the first hit of a
 * key opens a window at that hit's time; a hit at or after `start + windowMs` opens the next one;
 * up to `limit` hits in a window wait 0, later ones wait until the window's end. The in-memory
 * counter runs it in process; the PostgreSQL and Redis counters send `now()` and `windowMs` to
 * their engine, which applies `ended` atomically in SQL or Lua and answers the window's
 * start and count, and turn that answer into the window with `windowAfter`.
 *
 * @example
 * const rule = new FixedWindowRule({ limit: 100, windowMs: 60_000 });
 * const now = rule.now();
 * rule.windowAfter(101, now - 1_000, now); // { hits: 101, resetAtMs: now + 59_000, waitMs: 59_000 }
 */
export class FixedWindowRule {
  /** Hits allowed per key per window (0 refuses every hit). */
  readonly limit: number;
  /** Window length, ms (at least 1). */
  readonly windowMs: number;
  readonly #clock: Clock;

  /** Checks the options (RangeError naming a bad one) and the clock (ClockError). */
  constructor(options: RateLimitCounterOptions) {
    this.limit = integerAtLeast(options.limit, 0, 'limit');
    this.windowMs = integerAtLeast(options.windowMs, 1, 'windowMs');
    this.#clock = checkedClock(options.clock ?? systemClock);
  }

  /** The time of a hit, whole ms: windows start and end on whole milliseconds in every engine. */
  now(): number {
    return Math.floor(this.#clock.now());
  }

  /** Whether the window that started at `startMs` has ended at `nowMs` (the next hit opens a new one). */
  ended(startMs: number, nowMs: number): boolean {
    return nowMs - startMs >= this.windowMs;
  }

  /** The start of the window `windowAfter` answered (its `resetAtMs` less the window length): what `release` matches. */
  startOf(window: RateLimitWindow): number {
    return window.resetAtMs - this.windowMs;
  }

  /** The window after a hit at `nowMs` that made `hits` in the window started at `startMs`. */
  windowAfter(hits: number, startMs: number, nowMs: number): RateLimitWindow {
    const resetAtMs = startMs + this.windowMs;
    return { hits, resetAtMs, waitMs: hits > this.limit ? resetAtMs - nowMs : 0 };
  }
}
