import { TesseraError } from './tessera-error.js';

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

/**
 * Thrown when a clock reads anything but a finite number of milliseconds: at boot by
 * {@link checkedClock}, and at request time by the clock it returns, so that code comparing
 * times (token expiry, key expiry) fails closed instead of comparing against `NaN`, which every
 * comparison answers `false` and which would accept an expired token.
 *
 * @example
 * try { clock.now(); } catch (error) { if (error instanceof ClockError) { ... } }
 */
export class ClockError extends TesseraError {
  constructor(message: string) {
    super('CLOCK_INVALID', message);
  }
}

function readFinite(clock: Clock): number {
  const now = clock.now();
  if (typeof now !== 'number' || !Number.isFinite(now)) {
    throw new ClockError(`The clock returned ${typeof now === 'number' ? String(now) : typeof now}; a clock must return finite milliseconds since the epoch.`);
  }
  return now;
}

/**
 * Checks a clock once (throwing {@link ClockError} for a broken one, so a bad configuration
 * fails at boot) and returns a clock that checks every reading (throwing rather than returning
 * a non-finite value, so a clock that breaks later fails closed).
 *
 * @example
 * const clock = checkedClock(options.clock ?? systemClock); // throws now if options.clock is broken
 * clock.now(); // a finite number, or a thrown ClockError
 */
export function checkedClock(clock: Clock): Clock {
  if (typeof clock !== 'object' || clock === null || typeof clock.now !== 'function') throw new ClockError('A clock must be an object with a now() method.');
  readFinite(clock);
  if (clock === systemClock) return clock;
  return { now: () => readFinite(clock) };
}
