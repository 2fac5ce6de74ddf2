// The fixed-window rule (FixedWindowRule) against a naive model that keeps every hit's time and
// derives each window from that history, for arbitrary limits, window lengths, keys and clock
// moves (often exactly a window, or one ms short of it). Run on the in-memory counter, and on the
// PostgreSQL counter (PGlite), where the restart is decided in SQL and the answer turned into the
// window by the same rule; the Redis counter runs the same property against a real Redis when
// TEST_REDIS_URL is set.
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock, InMemoryRateLimitCounter, type Clock, type RateLimitWindow } from '../../lib/index.js';
import { PostgresRateLimitCounter } from '../../lib/postgres/index.js';
import { RedisRateLimitCounter } from '../../lib/redis/index.js';
import { useMigratedPGlite } from '../../test/postgres/support/pglite.js';
import { uniqueId } from '../../test/store-contracts/contract-fixtures.js';
import type { WindowedRateLimitCounter } from '../../test/store-contracts/rate-limit-counter-contract.js';

const T0 = Date.parse('2026-11-25T12:00:00Z');
const KEYS = ['a', 'b', 'c'];
const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

interface Scenario {
  readonly limit: number;
  readonly windowMs: number;
  /** Each hit: how far the clock moves first, and which key is hit. */
  readonly hits: readonly { readonly advanceMs: number; readonly key: number }[];
}

/** Scenarios with windows of at least `minWindowMs`. */
function scenarioArb(minWindowMs: number): fc.Arbitrary<Scenario> {
  const windowArb = fc.oneof(fc.constant(minWindowMs), fc.integer({ min: minWindowMs, max: 5000 }));
  return fc.record({ limit: fc.integer({ min: 0, max: 4 }), windowMs: windowArb }).chain(({ limit, windowMs }) =>
    fc.record({
      limit: fc.constant(limit),
      windowMs: fc.constant(windowMs),
      hits: fc.array(
        fc.record({
          // Exactly a window, one ms short of it, no move at all, or anything up to two windows.
          advanceMs: fc.oneof(fc.constantFrom(0, 1, windowMs - 1, windowMs, windowMs + 1), fc.integer({ min: 0, max: 2 * windowMs })),
          key: fc.nat(KEYS.length - 1),
        }),
        { minLength: 1, maxLength: 30 },
      ),
    }),
  );
}

/**
 * The model, from the rule's sentences: the first hit opens a window at its time, the first hit
 * at or after `start + windowMs` opens the next; a hit waits until its window's end once the
 * window holds more than `limit` hits. `history` is every hit of the key so far, this one last.
 */
function model(history: readonly number[], limit: number, windowMs: number): RateLimitWindow {
  let start = history[0] as number;
  for (const time of history) if (time >= start + windowMs) start = time;
  const now = history[history.length - 1] as number;
  const hits = history.filter((time) => time >= start).length;
  return { hits, resetAtMs: start + windowMs, waitMs: hits > limit ? start + windowMs - now : 0 };
}

type Make = (limit: number, windowMs: number, clock: Clock) => WindowedRateLimitCounter;

async function agreesWithModel(make: Make, scenario: Scenario): Promise<void> {
  const clock = createManualClock(T0);
  const counter = make(scenario.limit, scenario.windowMs, clock);
  const histories = new Map<string, number[]>();
  for (const [index, { advanceMs, key }] of scenario.hits.entries()) {
    clock.advance(advanceMs);
    const name = KEYS[key] as string;
    const history = histories.get(name) ?? [];
    history.push(clock.now());
    histories.set(name, history);
    expect(await counter.hitWindow(name), `hit ${index} (key ${name} at T0+${clock.now() - T0})`).toEqual(model(history, scenario.limit, scenario.windowMs));
  }
}

describe('the fixed window (property)', () => {
  it('the in-memory counter agrees with the model', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb(1), (scenario) => agreesWithModel((limit, windowMs, clock) => new InMemoryRateLimitCounter({ limit, windowMs, clock }), scenario)),
      { numRuns: 1000 },
    );
  });

  describe('on PostgreSQL (PGlite)', () => {
    const lite = useMigratedPGlite();

    it('the PostgreSQL counter agrees with the model', async () => {
      await fc.assert(
        fc.asyncProperty(scenarioArb(1), (scenario) => agreesWithModel((limit, windowMs, clock) => new PostgresRateLimitCounter(lite.db, { limit, windowMs, clock, name: uniqueId('property') }), scenario)),
        { numRuns: 100 },
      );
    });
  });

  describe.skipIf(TEST_REDIS_URL === undefined)('on Redis (TEST_REDIS_URL)', () => {
    let redis: Redis;
    beforeAll(() => {
      redis = new Redis(TEST_REDIS_URL as string);
    });
    afterAll(async () => {
      await redis.quit();
    });

    // Redis drops a key two windows of real time after its last hit, while this clock is manual:
    // windows of a second at least, so that no key expires between two hits of one run.
    it('the Redis counter agrees with the model', async () => {
      await fc.assert(
        fc.asyncProperty(scenarioArb(1000), (scenario) => agreesWithModel((limit, windowMs, clock) => new RedisRateLimitCounter(redis, { limit, windowMs, clock, name: uniqueId('property') }), scenario)),
        { numRuns: 100 },
      );
    });
  });
});
