import type { PubSub } from './pub-sub.js';
import type { HealthCheck, SharedEngineCheckOptions } from '../common/health-check.js';

/**
 * A readiness check for the app's PubSub engine: down while the engine's listening connection is
 * lost (`listening()` false), so the readiness answer shows an instance that no longer hears the
 * others (pushes published elsewhere, revocations). Always up for an engine with no such
 * connection (the in-process one). Not critical by default: every instance loses a shared bus at
 * once, so readiness stays 200 (`degraded`) rather than taking them all out of the balancer;
 * `{ critical: true }` makes it a 503.
 *
 * @example
 * const pubsub = redisPubSub(redis);
 * const app = await createApp(AppModule, { pubsub, health: { checks: [pubSubHealthCheck(pubsub)] } });
 */
export function pubSubHealthCheck(pubsub: PubSub, options: SharedEngineCheckOptions = {}): HealthCheck {
  return {
    name: options.name ?? 'pubsub',
    critical: options.critical ?? false,
    check() {
      if (pubsub.listening?.() === false) throw new Error('The pub/sub engine has lost its listening connection: what other instances publish does not reach this one');
    },
  };
}
