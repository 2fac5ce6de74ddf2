import type { Redis } from 'ioredis';
import { jsonLogger, type Logger, type PubSub, type TopicHandler } from '../index.js';
import { callHandler, EngineOutage, startHeartbeat, TopicTable } from '../internal/engines.js';

/**
 * Options of {@link redisPubSub}.
 *
 * @example
 * redisPubSub(redis, { prefix: 'blog:', logger: app.logger });
 */
export interface RedisPubSubOptions {
  /** Put before every topic to make the Redis channel, so that apps sharing a Redis stay apart. Default `tessera:`. */
  readonly prefix?: string;
  /**
   * Told of handler errors, and once when a connection is lost and once when it is back (JSON
   * lines `engine.lost` / `engine.back`). Default: a JSON logger on stdout.
   */
  readonly logger?: Logger;
  /**
   * How often the listening connection is asked for a PING, ms; a PING unanswered for as long
   * counts as a loss (a stalled server keeps its TCP connection open, so only an answer tells it
   * is alive). Default 1 000; 0 turns the heartbeat off.
   */
  readonly heartbeatMs?: number;
}

/**
 * A PubSub on Redis (or Valkey) `PUBLISH`/`SUBSCRIBE` through ioredis. `client` publishes; a
 * duplicate of it, made here, subscribes (a subscribed connection can do nothing else), and
 * ioredis subscribes it again to every channel after a reconnect. Delivery is at most once: what
 * is published while an instance is disconnected does not reach it. A handler's error is logged
 * and never ends its subscription. `close()` ends the duplicate; `client` stays its owner's.
 *
 * Faults: both connections get an `error` listener (so ioredis never prints `Unhandled error
 * event`), and each outage is one `engine.lost` and one `engine.back` line, however many
 * reconnect attempts it holds. Once the client has been connected, a publish while it is not
 * fails at once instead of waiting in ioredis's offline queue (the app's bus keeps or drops it).
 * A heartbeat PING tells a stalled server from a quiet one.
 *
 * Why ioredis: it resubscribes after a reconnect by itself (`autoResubscribe`), runs Lua scripts
 * by SHA with a fallback (`defineCommand`, which `RedisRateLimitCounter` uses), and bounds each
 * command's time (`commandTimeout`); node-redis would serve too.
 *
 * @example
 * import { Redis } from 'ioredis';
 * const pubsub = redisPubSub(new Redis(process.env.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: 1_000 }));
 * const app = await createApp(AppModule, { pubsub });
 */
export function redisPubSub(client: Redis, options: RedisPubSubOptions = {}): PubSub {
  const prefix = options.prefix ?? 'tessera:';
  const logger = options.logger ?? jsonLogger();
  const heartbeatMs = options.heartbeatMs ?? 1_000;
  const subscriber = client.duplicate();
  const listening = new EngineOutage('redis pub/sub listener', logger, { startsDown: true });
  const publishing = new EngineOutage('redis pub/sub publisher', logger);
  let clientWasReady = client.status === 'ready';
  // Closing ends the connection on purpose: not an outage.
  let closed = false;
  const onHandlerError = (error: unknown, topic: string) => logger.error({ err: error, topic }, 'A topic handler failed');

  // SUBSCRIBE only once the connection is ready: issued while it still connects, a SUBSCRIBE was
  // seen to be lost now and then (three processes booting together: one of them not subscribed,
  // checked with PUBSUB NUMSUB), so a revocation never reached that instance.
  const ready = (): Promise<void> => (subscriber.status === 'ready' ? Promise.resolve() : new Promise((resolve) => subscriber.once('ready', () => resolve())));
  const local = new TopicTable<TopicHandler>({
    subscribe: async (topic) => {
      await ready();
      await subscriber.subscribe(`${prefix}${topic}`);
    },
    unsubscribe: async (topic) => {
      await subscriber.unsubscribe(`${prefix}${topic}`);
    },
  });

  subscriber.on('message', (channel: string, message: string) => {
    if (channel.startsWith(prefix)) local.deliver(channel.slice(prefix.length), message, callHandler, onHandlerError);
  });
  // ioredis retries by itself; without a listener each failed attempt would be printed.
  subscriber.on('error', (error: Error) => {
    if (!closed) listening.lost(error);
  });
  subscriber.on('close', () => {
    if (!closed) listening.lost();
  });
  // 'ready' comes after ioredis has subscribed the connection again to every channel.
  subscriber.on('ready', () => listening.back());
  client.on('error', (error: Error) => {
    if (clientWasReady) publishing.lost(error);
  });
  client.on('ready', () => {
    clientWasReady = true;
    publishing.back();
  });

  const stopHeartbeat =
    heartbeatMs > 0
      ? startHeartbeat(
          heartbeatMs,
          () => (subscriber.status === 'ready' ? subscriber.ping() : undefined),
          () => {
            if (subscriber.status === 'ready') listening.back();
          },
          (error) => listening.lost(error),
        )
      : undefined;

  return {
    async publish(topic, message) {
      // Waiting in the offline queue would hold the message (and its memory) for the whole
      // reconnect; the app's bus decides what a refused message becomes.
      if (clientWasReady && client.status !== 'ready') throw new Error(`Redis is not connected (${client.status})`);
      await client.publish(`${prefix}${topic}`, message);
    },
    subscribe: (topic, handler) => local.add(topic, handler),
    unsubscribe: (topic, handler) => local.remove(topic, handler),
    async close() {
      closed = true;
      stopHeartbeat?.();
      local.close();
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
    listening: () => listening.up,
    onListeningChange: (listener) => listening.onChange(listener),
  };
}
