import type { Redis } from 'ioredis';
import type { HealthCheck } from '../internal.js';

/**
 * A readiness check for Redis: `PING` through the given client. The app's health option bounds it
 * with its timeout; a Redis that does not answer (ioredis queues commands while it reconnects)
 * counts as down, so a balancer stops sending requests that would fail closed anyway.
 *
 * @example
 * const app = await createApp(AppModule, { health: { checks: [redisHealthCheck(redis)] } });
 */
export function redisHealthCheck(client: Redis, name = 'redis'): HealthCheck {
  return {
    name,
    async check() {
      const answer = await client.ping();
      if (answer !== 'PONG') throw new Error('Redis did not answer PING with PONG');
    },
  };
}
