import type { Redis } from 'ioredis';
import { TopicHandlers, type Logger, type PubSub } from '../internal.js';

/**
 * Options of {@link redisPubSub}.
 *
 * @example
 * redisPubSub(redis, { prefix: 'blog:', logger: app.logger });
 */
export interface RedisPubSubOptions {
  /** Put before every topic to make the Redis channel, so that apps sharing a Redis stay apart. Default `tessera:`. */
  readonly prefix?: string;
  /** Told of handler errors, and once when the subscriber connection is lost and once when it is back. Default: silent. */
  readonly logger?: Logger;
}

/**
 * A PubSub on Redis (or Valkey) `PUBLISH`/`SUBSCRIBE` through ioredis. `client` publishes; a
 * duplicate of it, made here, subscribes (a subscribed connection can do nothing else), and
 * ioredis subscribes it again to every channel after a reconnect. Delivery is at most once: what
 * is published while an instance is disconnected does not reach it. A handler's error is logged
 * and never ends its subscription. `close()` ends the duplicate; `client` stays its owner's.
 *
 * Why ioredis: it resubscribes after a reconnect by itself (`autoResubscribe`), runs Lua scripts
 * by SHA with a fallback (`defineCommand`, which `RedisRateLimitCounter` uses), and bounds each
 * command's time (`commandTimeout`); node-redis would serve too.
 *
 * @example
 * import { Redis } from 'ioredis';
 * const pubsub = redisPubSub(new Redis(process.env.REDIS_URL));
 * const app = await createApp(AppModule, { pubsub });
 */
export function redisPubSub(client: Redis, options: RedisPubSubOptions = {}): PubSub {
  const prefix = options.prefix ?? 'tessera:';
  const subscriber = client.duplicate();
  const local = new TopicHandlers();
  const onHandlerError = (error: unknown, topic: string) => options.logger?.error({ err: error, topic }, 'A topic handler failed');
  subscriber.on('message', (channel: string, message: string) => {
    if (channel.startsWith(prefix)) local.deliver(channel.slice(prefix.length), message, onHandlerError);
  });
  // Connection errors are retried by ioredis (without a listener they would be thrown): logged
  // once per outage, and once when the subscriptions are back.
  let lost = false;
  subscriber.on('error', (error: Error) => {
    if (!lost) options.logger?.warn({ err: error }, 'Redis pub/sub connection lost: reconnecting (messages published meanwhile are lost)');
    lost = true;
  });
  subscriber.on('ready', () => {
    if (lost) options.logger?.info({}, 'Redis pub/sub connection back');
    lost = false;
  });
  // SUBSCRIBE only once the connection is ready: issued while it still connects, it was seen to be
  // lost now and then (three processes booting together: one of them not subscribed, checked with
  // PUBSUB NUMSUB), so a revocation never reached that instance.
  const ready = (): Promise<void> => (subscriber.status === 'ready' ? Promise.resolve() : new Promise((resolve) => subscriber.once('ready', () => resolve())));
  return {
    async publish(topic, message) {
      await client.publish(`${prefix}${topic}`, message);
    },
    async subscribe(topic, handler) {
      if (!local.add(topic, handler)) return;
      try {
        await ready();
        await subscriber.subscribe(`${prefix}${topic}`);
      } catch (error) {
        local.remove(topic, handler);
        throw error;
      }
    },
    async unsubscribe(topic, handler) {
      if (local.remove(topic, handler)) await subscriber.unsubscribe(`${prefix}${topic}`);
    },
    async close() {
      local.clear();
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
    // 'ready' is reached after ioredis has subscribed the connection again to every channel.
    listening: () => subscriber.status === 'ready',
  };
}
