import { describe, expect, it } from 'vitest';
import { createManualClock, isHttpException, UnauthorizedException } from '../../lib/index.js';
import type { ManualClock } from '../../lib/index.js';
import { SignInThrottle } from '../../lib/auth/throttle/sign-in-throttle.js';
import { DEFAULT_SIGN_IN_THROTTLE_TIERS, type SignInCounterFactory } from '../../lib/auth/throttle/sign-in-throttle-options.js';
import { createThrottleKeys } from '../../lib/auth/throttle/throttle-keys.js';
import { T0, uniqueId } from './contract-fixtures.js';

/**
 * Counters for `instances` app instances on one engine: one factory per instance (each builds its
 * own counter objects and, for a server, uses its own client), all counting in the same place.
 */
export type SharedCounters = (instances: number) => Promise<readonly SignInCounterFactory[]>;

/** One sign-in's outcome: 'ok', 401 or 429 (with its Retry-After). */
type Outcome = 'ok' | 401 | `429:${string}`;

function instances(factories: readonly SignInCounterFactory[], clock: ManualClock) {
  // A fresh secret per test: its keys are new, so tests on one database or Redis do not meet.
  const keys = createThrottleKeys(uniqueId('secret-that-is-long-enough-for-the-test'));
  const verified = { count: 0 };
  const throttles = factories.map((counters) => new SignInThrottle({ keys, counters, tiers: DEFAULT_SIGN_IN_THROTTLE_TIERS, clock }));
  async function signIn(instance: number, password: string, clientAddress = '203.0.113.7'): Promise<Outcome> {
    const throttle = throttles[instance % throttles.length] as SignInThrottle;
    try {
      await throttle.attempt('alice@acme.test', { clientAddress }, async () => {
        verified.count++;
        if (password !== 'right') throw new UnauthorizedException('Invalid credentials');
      });
      return 'ok';
    } catch (error) {
      if (!isHttpException(error)) throw error;
      if (error.status === 429) return `429:${error.headers?.['retry-after'] ?? ''}`;
      if (error.status === 401) return 401;
      throw error;
    }
  }
  return { signIn, verified };
}

/**
 * Sign-in throttling on a shared counter engine, as several app instances use it: the counts are
 * one, whichever instance a sign-in reaches, and concurrent guesses cannot pass together.
 *
 * @example
 * describeSignInThrottleContract('redis', async (n) => Array.from({ length: n }, () => (o) => new RedisRateLimitCounter(client(), o)));
 */
export function describeSignInThrottleContract(name: string, shared: SharedCounters): void {
  describe(`sign-in throttling on shared counters: ${name}`, () => {
    it('counts failures on every instance together: 5 spread over two instances, then 429 on both', async () => {
      const clock = createManualClock(T0);
      const { signIn, verified } = instances(await shared(2), clock);
      for (let i = 0; i < 5; i++) expect(await signIn(i, 'wrong'), `failure ${i + 1}`).toBe(401);
      expect(await signIn(0, 'right')).toBe('429:60');
      expect(await signIn(1, 'right')).toBe('429:60');
      expect(verified.count).toBe(5);
    });

    it('lets exactly 5 of 30 concurrent guesses on three instances reach the password check', async () => {
      const clock = createManualClock(T0);
      const { signIn, verified } = instances(await shared(3), clock);
      const outcomes = await Promise.all(Array.from({ length: 30 }, (_, i) => signIn(i, 'wrong')));
      expect(outcomes.filter((o) => o === 401)).toHaveLength(5);
      // The refused ones may be told to wait longer than 60 s: attempts in flight count until
      // taken back, so in a burst the longer tiers fill up for a moment.
      expect(outcomes.filter((o) => o !== 'ok' && o !== 401 && o.startsWith('429:'))).toHaveLength(25);
      expect(verified.count).toBe(5);
      expect(await signIn(0, 'right'), 'once the burst is over, only its 5 failures count').toBe('429:60');
    });

    it('takes back a success on another instance than the one that counted the failures', async () => {
      const clock = createManualClock(T0);
      const { signIn } = instances(await shared(2), clock);
      for (let i = 0; i < 4; i++) await signIn(0, 'wrong');
      for (let i = 0; i < 5; i++) expect(await signIn(1, 'right')).toBe('ok');
      expect(await signIn(1, 'wrong'), 'the 5th failure').toBe(401);
      expect(await signIn(0, 'right')).toBe('429:60');
    });

    it('grows the wait, then lets the right password in when the windows end', async () => {
      const clock = createManualClock(T0);
      const { signIn } = instances(await shared(2), clock);
      for (let i = 0; i < 5; i++) await signIn(i, 'wrong');
      expect(await signIn(0, 'right')).toBe('429:60');
      clock.advance(60_000);
      for (let i = 0; i < 5; i++) await signIn(i, 'wrong');
      expect(await signIn(1, 'right')).toBe('429:840');
      clock.advance(840_000);
      expect(await signIn(0, 'right')).toBe('ok');
    });
  });
}
