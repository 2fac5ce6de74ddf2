import { describe, expect, it } from 'vitest';
import { createManualClock, InMemoryRateLimitCounter, jsonLogger } from '../../index.js';
import { isHttpException } from '../../http/http-exception.js';
import { AccountRouteThrottle } from './account-route-throttle.js';
import { resolveAccountRouteBudgets } from './account-route-throttle-options.js';
import { createThrottleKeys } from './throttle-keys.js';

function throttle() {
  const lines: Record<string, unknown>[] = [];
  const logger = jsonLogger({ write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  const keys = new Set<string>();
  const t = new AccountRouteThrottle({
    keys: createThrottleKeys('account-route-throttle-test-secret-0123456789'),
    counters: (options) => {
      const counter = new InMemoryRateLimitCounter(options);
      return { hit: (key) => counter.hit(key), release: (key, window) => counter.release(key, window), hitWindow: (key) => (keys.add(key), counter.hitWindow(key)) };
    },
    budgets: resolveAccountRouteBudgets({ perEmail: [{ requests: 2, windowSeconds: 60 }] }),
    clock: createManualClock(0),
    logger,
  });
  return { t, lines, keys };
}

const statusOf = (promise: Promise<void>) => promise.then(() => 'ok', (error: unknown) => (isHttpException(error) ? error.status : 'threw'));

describe('AccountRouteThrottle', () => {
  it('logs the first refusal of a key in its window once, naming no address', async () => {
    const { t, lines } = throttle();
    const outcomes = [];
    for (let i = 0; i < 4; i++) outcomes.push(await statusOf(t.check('mail', 'ada@example.com', undefined)));
    expect(outcomes).toEqual(['ok', 'ok', 429, 429]);
    const started = lines.filter((line) => line.event === 'auth.account-route.throttling-started');
    expect(started, 'one line, not one per refused request').toHaveLength(1);
    expect(JSON.stringify(lines)).not.toContain('ada@example.com');
  });

  it('keys counters by keyed hashes, never the address or the client address as sent', async () => {
    const { t, keys } = throttle();
    await t.check('sign-up', 'ada@example.com', '203.0.113.7');
    expect([...keys].join(' ')).not.toMatch(/ada|203\.0/);
    expect(keys.size, 'one key per address mailed and per client').toBe(2);
  });
});
