import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../lib/index.js';
import type { Clock, WindowedRateLimitCounter } from '../../lib/index.js';
import { T0, uniqueId } from './contract-fixtures.js';

export type { WindowedRateLimitCounter } from '../../lib/index.js';

/** Builds a counter allowing `limit` hits per key per `windowMs`, timed by `clock`. */
export type RateLimitCounterFactory = (limit: number, windowMs: number, clock: Clock) => Promise<WindowedRateLimitCounter>;

/**
 * The fixed-window counter contract shared by the in-memory, PostgreSQL and Redis counters: the
 * first hit of a key opens a window; `limit` hits in it answer 0, later ones the ms left in it;
 * the first hit after the window ended opens a new one; `release` takes back one hit of the
 * window it was given, and nothing from a later window.
 *
 * @example
 * describeRateLimitCounterContract('in-memory', async (limit, windowMs, clock) => new InMemoryRateLimitCounter({ limit, windowMs, clock }));
 */
export function describeRateLimitCounterContract(name: string, make: RateLimitCounterFactory): void {
  describe(`RateLimitCounter contract: ${name}`, () => {
    it('allows `limit` hits per window, then answers the time left; keys are independent', async () => {
      const clock = createManualClock(T0);
      const counter = await make(2, 10_000, clock);
      const [key, other] = [uniqueId('key'), uniqueId('key')];
      expect(await counter.hit(key)).toBe(0);
      clock.advance(2_500);
      expect(await counter.hit(key)).toBe(0);
      expect(await counter.hit(key)).toBe(7_500);
      clock.advance(1_000);
      expect(await counter.hit(key)).toBe(6_500);
      expect(await counter.hit(other)).toBe(0);
    });

    it('opens a new window with the first hit after the old one ended', async () => {
      const clock = createManualClock(T0);
      const counter = await make(1, 10_000, clock);
      const key = uniqueId('key');
      expect(await counter.hit(key)).toBe(0);
      expect(await counter.hit(key)).toBe(10_000);
      clock.advance(9_999);
      expect(await counter.hit(key)).toBe(1);
      clock.advance(1);
      expect(await counter.hit(key)).toBe(0);
      clock.advance(3_000);
      expect(await counter.hit(key)).toBe(7_000);
    });

    it('hitWindow reports the count and when the window resets', async () => {
      const clock = createManualClock(T0);
      const counter = await make(2, 10_000, clock);
      const key = uniqueId('key');
      expect(await counter.hitWindow(key), 'the first hit opens the window').toEqual({ hits: 1, resetAtMs: T0 + 10_000, waitMs: 0 });
      clock.advance(4_000);
      expect(await counter.hitWindow(key)).toEqual({ hits: 2, resetAtMs: T0 + 10_000, waitMs: 0 });
      expect(await counter.hitWindow(key), 'over the limit: wait for the reset').toEqual({ hits: 3, resetAtMs: T0 + 10_000, waitMs: 6_000 });
      clock.advance(6_000);
      expect(await counter.hitWindow(key), 'the hit at the reset opens the next window').toEqual({ hits: 1, resetAtMs: T0 + 20_000, waitMs: 0 });
    });

    it('counts in whole milliseconds: a fractional clock reading is floored', async () => {
      const clock = createManualClock(T0 + 0.75);
      const counter = await make(1, 10_000, clock);
      const key = uniqueId('key');
      expect(await counter.hitWindow(key)).toEqual({ hits: 1, resetAtMs: T0 + 10_000, waitMs: 0 });
      clock.advance(9_999);
      expect(await counter.hitWindow(key), 'T0 + 9,999.75 is still in the window').toEqual({ hits: 2, resetAtMs: T0 + 10_000, waitMs: 1 });
    });

    it('release takes back one hit of the current window: the next hit sees the count as before', async () => {
      const clock = createManualClock(T0);
      const counter = await make(2, 10_000, clock);
      const key = uniqueId('key');
      await counter.hitWindow(key);
      clock.advance(1_000);
      const second = await counter.hitWindow(key);
      await counter.release(key, second);
      expect(await counter.hitWindow(key), 'the released hit is not counted').toEqual({ hits: 2, resetAtMs: T0 + 10_000, waitMs: 0 });
      expect(await counter.hitWindow(key), 'the limit still holds after a release').toEqual({ hits: 3, resetAtMs: T0 + 10_000, waitMs: 9_000 });
    });

    it('release never takes a hit from a later window, nor goes below 0', async () => {
      const clock = createManualClock(T0);
      const counter = await make(1, 10_000, clock);
      const key = uniqueId('key');
      const old = await counter.hitWindow(key);
      await counter.release(key, old);
      await counter.release(key, old);
      expect(await counter.hitWindow(key), 'two releases of one hit leave 0, not -1').toEqual({ hits: 1, resetAtMs: T0 + 10_000, waitMs: 0 });
      clock.advance(10_000);
      await counter.hitWindow(key);
      await counter.release(key, old);
      expect(await counter.hitWindow(key), 'a release of the ended window left the new one alone').toEqual({ hits: 2, resetAtMs: T0 + 20_000, waitMs: 10_000 });
    });

    it('release of a key that was never hit changes nothing', async () => {
      const clock = createManualClock(T0);
      const counter = await make(1, 10_000, clock);
      const key = uniqueId('key');
      await counter.release(key, { hits: 1, resetAtMs: T0 + 10_000, waitMs: 0 });
      expect(await counter.hitWindow(key)).toEqual({ hits: 1, resetAtMs: T0 + 10_000, waitMs: 0 });
    });

    it('concurrent hits and releases are all applied', async () => {
      const clock = createManualClock(T0);
      const counter = await make(100, 60_000, clock);
      const key = uniqueId('key');
      const windows = await Promise.all(Array.from({ length: 40 }, () => counter.hitWindow(key)));
      await Promise.all(windows.slice(0, 30).map((window) => counter.release(key, window)));
      expect((await counter.hitWindow(key)).hits, '40 hits less 30 releases, plus this one').toBe(11);
    });

    it('concurrent hits are all counted: exactly `limit` of them are allowed', async () => {
      const clock = createManualClock(T0);
      const counter = await make(10, 60_000, clock);
      const key = uniqueId('key');
      const waits = await Promise.all(Array.from({ length: 40 }, () => counter.hit(key)));
      expect(waits.filter((w) => w === 0)).toHaveLength(10);
      expect(waits.filter((w) => w === 60_000)).toHaveLength(30);
    });
  });
}
