// Sign-in throttling on each counter Tessera ships, as several instances share it: in memory (one
// process's instances share the object), PostgreSQL (PGlite, and the real server of
// TEST_DATABASE_URL with a pool per instance) and Redis (TEST_REDIS_URL, a client per instance).
// Without the URLs the server suites are reported as skipped, with the reason.
import { afterAll, describe } from 'vitest';
import { InMemoryRateLimitCounter, type WindowedRateLimitCounter } from '../../lib/index.js';
import { PostgresRateLimitCounter } from '../../lib/postgres/index.js';
import { RedisRateLimitCounter } from '../../lib/redis/index.js';
import type { SignInCounterFactory, SignInCounterOptions } from '../../lib/auth/throttle/sign-in-throttle-options.js';
import { useMigratedPGlite } from '../postgres/support/pglite.js';
import { connectClients, TEST_DATABASE_URL, useMigratedTestDatabase } from '../postgres/support/test-database.js';
import { TEST_REDIS_URL, useRedisClients } from '../redis/redis-clients.js';
import { describeSignInThrottleContract } from './sign-in-throttle-contract.js';

/** In memory, one counter per name shared by the instances of this process. */
function sharedInMemory(): SignInCounterFactory {
  const counters = new Map<string, WindowedRateLimitCounter>();
  return (options: SignInCounterOptions) => {
    let counter = counters.get(options.name);
    if (counter === undefined) counters.set(options.name, (counter = new InMemoryRateLimitCounter(options)));
    return counter;
  };
}

describeSignInThrottleContract('in-memory', async (n) => {
  const shared = sharedInMemory();
  return Array.from({ length: n }, () => shared);
});

describe('PostgreSQL on PGlite', () => {
  const lite = useMigratedPGlite();
  describeSignInThrottleContract('postgres on PGlite', async (n) => Array.from({ length: n }, () => (options: SignInCounterOptions) => new PostgresRateLimitCounter(lite.db, options)));
});

describe.skipIf(TEST_DATABASE_URL === undefined)('real PostgreSQL server (TEST_DATABASE_URL)', () => {
  const db = useMigratedTestDatabase(4);
  const opened: { end(): Promise<void> }[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((client) => client.end()));
  });
  describeSignInThrottleContract('postgres server, a client per instance', async (n) => {
    const clients = await connectClients(db.url, n);
    opened.push(...clients);
    return clients.map((client) => (options: SignInCounterOptions) => new PostgresRateLimitCounter(client, options));
  });
});

describe.skipIf(TEST_REDIS_URL === undefined)('real Redis (TEST_REDIS_URL)', () => {
  const client = useRedisClients();
  describeSignInThrottleContract('redis, a client per instance', async (n) => Array.from({ length: n }, () => {
    const redis = client();
    // A long timeout: on a loaded machine the default 500 ms can pass, and the 503 is not what this tests.
    return (options: SignInCounterOptions) => new RedisRateLimitCounter(redis, { ...options, timeoutMs: 5_000 });
  }));
});
