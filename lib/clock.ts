/**
 * A source of the current time, injectable so that tests and property tests can drive time
 * instead of sleeping.
 *
 * @example
 * const clock: Clock = { now: () => Date.parse('2026-01-01T00:00:00Z') };
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/**
 * The wall clock.
 *
 * @example
 * const started = systemClock.now();
 */
export const systemClock: Clock = Object.freeze({ now: () => Date.now() });

/**
 * A clock that only moves when told to; for tests.
 *
 * @example
 * const clock = createManualClock(0);
 * clock.advance(1_000);
 * clock.now(); // 1000
 */
export interface ManualClock extends Clock {
  advance(ms: number): void;
  set(ms: number): void;
}

/**
 * Creates a {@link ManualClock} starting at `startMs`.
 *
 * @example
 * const clock = createManualClock(Date.parse('2026-01-01T00:00:00Z'));
 */
export function createManualClock(startMs = 0): ManualClock {
  let current = startMs;
  return {
    now: () => current,
    advance(ms: number) {
      current += ms;
    },
    set(ms: number) {
      current = ms;
    },
  };
}
