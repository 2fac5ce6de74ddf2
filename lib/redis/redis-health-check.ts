import type { Redis } from 'ioredis';
import type { HealthCheck, SharedEngineCheckOptions } from '../index.js';

/**
 * A readiness check for Redis: `PING` through the given client. The app's health option bounds it
 * with its timeout; a Redis that does not answer (ioredis queues commands while it reconnects)
 * counts as down. Not critical by default: every instance shares the Redis, so its outage would
 * make all of them 503 at once and empty the balancer, while the routes that do not need Redis
 * still answer; readiness stays 200 (`degraded`). `{ critical: true }` makes it a 503.
 *
 * @example
 * const app = await createApp(AppModule, { health: { checks: [redisHealthCheck(redis)] } });
 */
export function redisHealthCheck(client: Redis, options: SharedEngineCheckOptions = {}): HealthCheck {
  return {
    name: options.name ?? 'redis',
    critical: options.critical ?? false,
    async check() {
      const answer = await client.ping();
      if (answer !== 'PONG') throw new Error('Redis did not answer PING with PONG');
    },
  };
}
