import type { Redis } from 'ioredis';
import { z } from 'zod';
import { defineConfig, type Logger, type PubSub } from '../../lib/index.js';
import type { SqlClient } from '../../lib/postgres/index.js';

/**
 * The engines an example may carry its messages over: `REDIS_URL` and `DATABASE_URL`, both
 * optional, both secrets (a URL may hold a password).
 *
 * @example
 * const { REDIS_URL } = BusConfig.load(process.env);
 */
export const BusConfig = defineConfig(
  z.object({
    REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  }),
  { name: 'BusConfig', secrets: ['REDIS_URL', 'DATABASE_URL'] },
);

/**
 * The PubSub engine an example is configured with: Redis (or Valkey) when `REDIS_URL` is set,
 * else PostgreSQL LISTEN/NOTIFY when `DATABASE_URL` is, else none (the app's in-process default).
 * The drivers are loaded only when asked for. `close` ends the engine and its connections; with
 * Redis, `redis` is its connection, for whatever else the app keeps there (a rate-limit counter).
 * An app that already has a pool on `DATABASE_URL` passes it as `publisher`, so NOTIFY goes
 * through it rather than through a second pool (the listening connection is the engine's own).
 *
 * @example
 * const bus = await pubsubFromEnv(process.env, logger);
 * const app = await createApp(AppModule, { pubsub: bus?.pubsub });
 */
export async function pubsubFromEnv(env: object, logger: Logger, publisher?: SqlClient): Promise<{ readonly pubsub: PubSub; readonly engine: 'redis' | 'postgres'; readonly redis?: Redis; close(): Promise<void> } | undefined> {
  const { REDIS_URL, DATABASE_URL } = BusConfig.load(env);
  if (REDIS_URL !== undefined) {
    const [{ Redis }, { redisPubSub }] = await Promise.all([import('ioredis'), import('../../lib/redis/index.js')]);
    // Bounded waits: a command fails after one reconnect attempt or a second instead of queueing
    // for the whole outage. Errors need no listener here: redisPubSub attaches one to this
    // connection and logs each outage once (a listener per error would log every reconnect attempt).
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: 1_000 });
    const pubsub = redisPubSub(redis, { logger });
    return { pubsub, engine: 'redis', redis, close: async () => { await pubsub.close(); await redis.quit(); } };
  }
  if (DATABASE_URL !== undefined) {
    const [{ default: pg }, { postgresPubSub }] = await Promise.all([import('pg'), import('../../lib/postgres/index.js')]);
    const url = DATABASE_URL;
    // Its own small pool only when the app has none to lend; `close` ends it only then.
    const own = publisher === undefined ? new pg.Pool({ connectionString: url, max: 2 }) : undefined;
    const pubsub = postgresPubSub({
      publisher: own ?? (publisher as SqlClient),
      connect: async () => {
        const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
        await client.connect();
        return client;
      },
      logger,
    });
    return { pubsub, engine: 'postgres', close: async () => { await pubsub.close(); await own?.end(); } };
  }
  return undefined;
}
