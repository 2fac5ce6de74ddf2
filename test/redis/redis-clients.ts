import { Redis } from 'ioredis';
import { afterAll } from 'vitest';

/** The test Redis (CI sets it; locally see docs/production.md). */
export const TEST_REDIS_URL: string | undefined = process.env.TEST_REDIS_URL || undefined;

/**
 * Connects to the test Redis, one new client per call (as separate instances would have), all
 * closed after the `describe` block that calls this.
 *
 * @example
 * const connect = useRedisClients();
 * const counter = new RedisRateLimitCounter(connect(), { limit: 10, windowMs: 60_000 });
 */
export function useRedisClients(): () => Redis {
  const clients: Redis[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.quit().catch(() => client.disconnect())));
  });
  return () => {
    const redis = new Redis(TEST_REDIS_URL as string);
    clients.push(redis);
    return redis;
  };
}
