// The PubSub contract on the three engines: in-process always; PostgreSQL LISTEN/NOTIFY on a real
// server when TEST_DATABASE_URL is set, Redis when TEST_REDIS_URL is set (CI sets both; without
// them the suites are reported as skipped, with the reason).
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { postgresPubSub } from '../../lib/postgres/index.js';
import { inProcessPubSub } from '../../lib/index.js';
import { redisPubSub } from '../../lib/redis/index.js';
import { createTestDatabase, createTestPool, TEST_DATABASE_URL, type TestDatabase } from '../postgres/support/test-database.js';
import { describePubSubContract } from './pub-sub-contract.js';

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

describePubSubContract('in-process', async () => {
  const bus = inProcessPubSub();
  return { a: bus, b: bus, close: () => bus.close() };
});

describe.skipIf(TEST_DATABASE_URL === undefined)('PostgreSQL LISTEN/NOTIFY (TEST_DATABASE_URL)', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createTestPool(database.url, 4);
  }, 30_000);
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });
  const connect = async () => {
    const client = new pg.Client({ connectionString: database.url, application_name: 'tessera-pubsub-test' });
    await client.connect();
    return client;
  };
  describePubSubContract('postgres', async () => {
    const a = postgresPubSub({ publisher: pool, connect });
    const b = postgresPubSub({ publisher: pool, connect, maxReconnectDelayMs: 200 });
    return {
      a,
      b,
      cut: async () => {
        await pool.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'tessera-pubsub-test' AND query LIKE 'LISTEN%'`);
      },
      close: async () => {
        await Promise.all([a.close(), b.close()]);
      },
    };
  });
});

describe.skipIf(TEST_REDIS_URL === undefined)('Redis PUBLISH/SUBSCRIBE (TEST_REDIS_URL)', () => {
  describePubSubContract('redis', async () => {
    // b's connections are named, so that the cut kills only its subscriber (other files share this Redis).
    const name = `contract-b-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const [ca, cb, admin] = [new Redis(TEST_REDIS_URL as string), new Redis(TEST_REDIS_URL as string, { connectionName: name }), new Redis(TEST_REDIS_URL as string)];
    const a = redisPubSub(ca);
    const b = redisPubSub(cb);
    return {
      a,
      b,
      cut: async () => {
        const clients = String(await admin.call('CLIENT', 'LIST', 'TYPE', 'pubsub'));
        let killed = 0;
        for (const line of clients.split('\n')) {
          const id = / name=(\S+)/.exec(line)?.[1] === name ? /^id=(\d+)/.exec(line)?.[1] : undefined;
          if (id !== undefined) killed += Number(await admin.call('CLIENT', 'KILL', 'ID', id));
        }
        if (killed === 0) throw new Error(`no subscriber connection named ${name} to cut`);
      },
      close: async () => {
        await Promise.all([a.close(), b.close()]);
        await Promise.all([ca.quit(), cb.quit(), admin.quit()]);
      },
    };
  });
});
