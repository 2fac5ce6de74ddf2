// RedisRateLimitCounter on a real Redis (TEST_REDIS_URL; CI sets it): the same contract as the
// in-memory and PostgreSQL counters, and the outage policy against a Redis this file starts,
// stops and starts again itself (scripts/redis/). Skipped, with the reason, without TEST_REDIS_URL.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createManualClock, isHttpException } from '../../lib/index.js';
import { RedisRateLimitCounter } from '../../lib/redis/index.js';
import { T0, uniqueId } from '../store-contracts/contract-fixtures.js';
import { describeRateLimitCounterContract } from '../store-contracts/rate-limit-counter-contract.js';

import { TEST_REDIS_URL, useRedisClients } from './redis-clients.js';
const run = promisify(execFile);
const scripts = join(import.meta.dirname, '..', '..', 'scripts', 'redis');

describe.skipIf(TEST_REDIS_URL === undefined)('RedisRateLimitCounter on a real Redis (TEST_REDIS_URL)', () => {
  const client = useRedisClients();

  describeRateLimitCounterContract('redis', async (limit, windowMs, clock) => new RedisRateLimitCounter(client(), { limit, windowMs, clock, name: uniqueId('limiter') }));

  it('holds the limit exactly across three clients (three instances) hitting one key at once', async () => {
    const clock = createManualClock(T0);
    const name = uniqueId('limiter');
    const counters = [client(), client(), client()].map((redis) => new RedisRateLimitCounter(redis, { limit: 10, windowMs: 60_000, clock, name }));
    const waits = await Promise.all(Array.from({ length: 300 }, (_, i) => (counters[i % 3] as RedisRateLimitCounter).hit('shared')));
    expect(waits.filter((wait) => wait === 0), 'exactly 10 of 300 allowed').toHaveLength(10);
  });
});

describe.skipIf(TEST_REDIS_URL === undefined)('RedisRateLimitCounter when Redis goes down (its own server)', () => {
  it('fails closed with 503 in bounded time while Redis is down (fail-open lets requests through), and decides again once it is back', async () => {
    const { stdout } = await run(join(scripts, 'start-test-server.sh'));
    const url = /TEST_REDIS_URL=(\S+)/.exec(stdout)?.[1] as string;
    const dir = /TESSERA_REDIS_DIR=(\S+)/.exec(stdout)?.[1] as string;
    const redis = new Redis(url, { maxRetriesPerRequest: null, retryStrategy: () => 50 });
    redis.on('error', () => undefined);
    try {
      const closed = new RedisRateLimitCounter(redis, { limit: 5, windowMs: 60_000, timeoutMs: 300, name: uniqueId('limiter') });
      const open = new RedisRateLimitCounter(redis, { limit: 5, windowMs: 60_000, timeoutMs: 300, name: uniqueId('limiter'), whenUnavailable: 'fail-open' });
      expect(await closed.hit('k')).toBe(0);

      await run(join(scripts, 'stop-test-server.sh'), [dir, '--keep']);
      const started = Date.now();
      const refusal = await closed.hit('k').then(() => undefined, (error: unknown) => error);
      expect(isHttpException(refusal) && refusal.status, 'fail closed: a 503').toBe(503);
      expect(Date.now() - started, 'within the timeout, not hanging').toBeLessThan(1_000);
      expect(await open.hit('k'), 'fail open: allowed').toBe(0);

      await run(join(scripts, 'start-test-server.sh'), [dir]);
      const deadline = Date.now() + 10_000;
      let decided: number | undefined;
      while (decided === undefined && Date.now() < deadline) decided = await closed.hit('again').catch(() => undefined);
      expect(decided, 'deciding again within seconds of Redis coming back').toBe(0);
    } finally {
      redis.disconnect();
      await run(join(scripts, 'stop-test-server.sh'), [dir]);
    }
  }, 30_000);
});
