import type { PubSub } from './pub-sub.js';
import type { HealthCheck } from '../common/health-check.js';

/**
 * A readiness check for the app's PubSub engine: down while the engine's listening connection is
 * lost (`listening()` false), so a balancer can tell an instance that no longer hears the others
 * (pushes published elsewhere, revocations) from a healthy one. Always up for an engine with no
 * such connection (the in-process one).
 *
 * @example
 * const pubsub = redisPubSub(redis);
 * const app = await createApp(AppModule, { pubsub, health: { checks: [pubSubHealthCheck(pubsub)] } });
 */
export function pubSubHealthCheck(pubsub: PubSub, name = 'pubsub'): HealthCheck {
  return {
    name,
    check() {
      if (pubsub.listening?.() === false) throw new Error('The pub/sub engine has lost its listening connection: what other instances publish does not reach this one');
    },
  };
}
