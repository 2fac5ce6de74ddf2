import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { migrate } from '../../../lib/postgres/index.js';

/** The real PostgreSQL server the tests may use (CI sets it; locally see docs/production.md). */
export const TEST_DATABASE_URL: string | undefined = process.env.TEST_DATABASE_URL || undefined;


/** A throwaway database on the test server, so parallel test files never see each other's rows. */
export interface TestDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/** The same server URL pointing at another database. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * Creates a fresh, empty database on the server at `serverUrl` (default TEST_DATABASE_URL).
 *
 * @example
 * const db = await createTestDatabase(); // ... new pg.Pool({ connectionString: db.url }) ...; await db.drop();
 */
export async function createTestDatabase(serverUrl = TEST_DATABASE_URL): Promise<TestDatabase> {
  if (serverUrl === undefined) throw new Error('createTestDatabase needs TEST_DATABASE_URL');
  // A generated name, never user input: identifiers cannot be parameters.
  const name = `tessera_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(serverUrl, name),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * The server ends connections when a test database is dropped (`WITH (FORCE)`) or a test cluster
 * stops; an idle client then emits 'error', which without a listener is an unhandled error that
 * fails the whole run. Such endings are expected here; real failures still reject the query.
 */
function ignoreServerEndings(emitter: { on(event: 'error', listener: () => void): unknown }): void {
  emitter.on('error', () => undefined);
}

/**
 * A pool for tests, tolerant of the server ending idle connections at teardown.
 *
 * @example
 * const pool = createTestPool(database.url, 20);
 */
export function createTestPool(url: string, max = 10, options: pg.PoolConfig = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, ...options });
  ignoreServerEndings(pool);
  return pool;
}

/** Opens `count` separate connections (as `count` processes would have). */
export async function connectClients(url: string, count: number): Promise<pg.Client[]> {
  const clients = Array.from({ length: count }, () => new pg.Client({ connectionString: url }));
  clients.forEach(ignoreServerEndings);
  await Promise.all(clients.map((c) => c.connect()));
  return clients;
}

/**
 * A database of its own on the test server with Tessera's tables, and a pool of `connections` on
 * it, for the `describe` block that calls this (its beforeAll and afterAll are registered here).
 * Several connections, so that concurrent operations really run in parallel in the server.
 *
 * @example
 * const db = useMigratedTestDatabase(20);
 * it('...', async () => { await db.pool.query('select 1'); });
 */
export function useMigratedTestDatabase(connections: number): { readonly pool: pg.Pool; readonly url: string } {
  let database: TestDatabase | undefined;
  let pool: pg.Pool | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createTestPool(database.url, connections);
    await migrate(pool);
  }, 30_000);
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });
  return {
    get pool() {
      if (pool === undefined) throw new Error('useMigratedTestDatabase: the pool is made in beforeAll');
      return pool;
    },
    get url() {
      if (database === undefined) throw new Error('useMigratedTestDatabase: the database is made in beforeAll');
      return database.url;
    },
  };
}
