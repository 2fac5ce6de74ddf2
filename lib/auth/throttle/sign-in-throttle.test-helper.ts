/**
 * Test-only fixtures for sign-in throttling: the issuing harness (stub password verifier that
 * counts its calls, manual clock) behind a throttle on recording in-memory counters.
 */
import { jsonLogger } from '../../logging/json-logger.js';
import { InMemoryRateLimitCounter } from '../../rate-limit/in-memory-rate-limit-counter.js';
import type { RateLimitWindow, WindowedRateLimitCounter } from '../../rate-limit/rate-limit-counter.js';
import { isHttpException } from '../../http/http-exception.js';
import { createHarness, type Harness } from '../sessions/issuing/issuing-fixtures.test-helper.js';
import type { SignInContext } from '../sessions/issuing/sign-in-context.js';
import { SignInThrottle } from './sign-in-throttle.js';
import { resolveSignInThrottleTiers, type SignInCounterFactory, type SignInThrottleOptions } from './sign-in-throttle-options.js';
import { createThrottleKeys } from './throttle-keys.js';
import { withSignInThrottle } from './throttled-auth-service.js';

/** The secret the test keys derive from. @example createThrottleKeys(TEST_SECRET) */
export const TEST_SECRET = 'throttle-test-secret-of-at-least-32-bytes!';

/** One counter call: which counter, which key, the window answered. */
export interface CounterCall {
  readonly name: string;
  readonly key: string;
  readonly op: 'hit' | 'release';
  readonly window: RateLimitWindow;
}

/**
 * Counters that record every call, over `make` (default in memory).
 *
 * @example
 * const { counters, calls } = recordingCounters();
 */
export function recordingCounters(make: SignInCounterFactory = (options) => new InMemoryRateLimitCounter(options)): { counters: SignInCounterFactory; calls: CounterCall[] } {
  const calls: CounterCall[] = [];
  const counters: SignInCounterFactory = (options) => {
    const inner: WindowedRateLimitCounter = make(options);
    return {
      hit: (key) => inner.hit(key),
      async hitWindow(key) {
        const window = await inner.hitWindow(key);
        calls.push({ name: options.name, key, op: 'hit', window });
        return window;
      },
      async release(key, window) {
        calls.push({ name: options.name, key, op: 'release', window });
        await inner.release(key, window);
      },
    };
  };
  return { counters, calls };
}

/** What a sign-in answered: 'ok', a status, and Retry-After when 429. */
export type Outcome = 'ok' | { status: number; retryAfter?: number };

/**
 * The issuing harness behind a throttle; `signIn` answers an {@link Outcome} instead of throwing.
 *
 * @example
 * const t = throttledHarness();
 * await t.signIn('alice@acme.test', 'wrong', { clientAddress: '203.0.113.7' }); // { status: 401 }
 */
export function throttledHarness(options: SignInThrottleOptions & { counters?: SignInCounterFactory } = {}) {
  const harness: Harness = createHarness();
  const recording = recordingCounters(options.counters);
  const lines: Record<string, unknown>[] = [];
  const logger = jsonLogger({ write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  const throttle = new SignInThrottle({ keys: createThrottleKeys(TEST_SECRET), counters: recording.counters, tiers: resolveSignInThrottleTiers(options), clock: harness.clock, logger });
  const service = withSignInThrottle(harness.service, throttle);
  async function signIn(identifier: string, password: string, context?: SignInContext): Promise<Outcome> {
    try {
      await service.signIn(identifier, password, context);
      return 'ok';
    } catch (error) {
      if (!isHttpException(error)) throw error;
      const retryAfter = error.headers?.['retry-after'];
      return retryAfter === undefined ? { status: error.status } : { status: error.status, retryAfter: Number(retryAfter) };
    }
  }
  return { ...harness, throttle, service, signIn, calls: recording.calls, lines };
}
