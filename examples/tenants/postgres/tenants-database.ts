import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import type { OnApplicationShutdown } from '../../../lib/index.js';
import { migrate } from '../../../lib/postgres/index.js';
import type { PooledSqlConnection, SqlClient, SqlPool, SqlResult } from '../../../lib/postgres/index.js';
import { migrateTenantPosts } from './tenant-posts-schema.js';

/**
 * Where the tenants app keeps its data, read from the environment.
 *
 * | variable | default | meaning |
 * | --- | --- | --- |
 * | DATABASE_URL | unset | a PostgreSQL server (`postgres://user:password@host:5432/db`), through `pg` |
 * | TENANTS_DATA_DIR | `examples/tenants/data/` | without DATABASE_URL: the embedded PGlite database's directory |
 * | DATABASE_QUERY_TIMEOUT_MS | 2000 | bound on one query and on getting a connection; a slower answer is a 503 |
 */
export interface TenantsDatabaseConfig {
  readonly url: string | undefined;
  readonly dataDir: string;
  readonly queryTimeoutMs: number;
}

/** The example's own folder, so the default data directory does not depend on the working directory. */
const DEFAULT_DATA_DIR = fileURLToPath(new URL('../data/', import.meta.url));

/**
 * Reads the database settings.
 *
 * @example
 * const config = readTenantsDatabaseConfig(process.env);
 */
export function readTenantsDatabaseConfig(env: Record<string, string | undefined>): TenantsDatabaseConfig {
  const timeout = env.DATABASE_QUERY_TIMEOUT_MS;
  const queryTimeoutMs = timeout === undefined || timeout === '' ? 2_000 : Number(timeout);
  if (!Number.isInteger(queryTimeoutMs) || queryTimeoutMs <= 0) throw new Error('DATABASE_QUERY_TIMEOUT_MS must be a positive integer.');
  return {
    url: env.DATABASE_URL === '' ? undefined : env.DATABASE_URL,
    dataDir: env.TENANTS_DATA_DIR ? resolve(env.TENANTS_DATA_DIR) : DEFAULT_DATA_DIR,
    queryTimeoutMs,
  };
}

/**
 * The open database: a {@link SqlClient} for the stores that also closes the pool (or flushes and
 * closes PGlite) when the app shuts down, because the tenants module registers it as a provider.
 * On a server it lends the pool's connections too (`connect`), so the stores run each write in a
 * transaction whose COMMIT is never sent late: their 503 then means nothing changed.
 *
 * @example
 * const database = await openTenantsDatabase(readTenantsDatabaseConfig(process.env));
 * const app = await createApp(createTenantsModule(config, { stores: (clock) => createPostgresTenantsStores(database, clock, config) }));
 */
export class TenantsDatabase implements SqlClient, OnApplicationShutdown {
  readonly #client: SqlClient;
  readonly #close: () => Promise<void>;
  #closed = false;
  /** The pool's `connect`, when there is a pool (PGlite is one connection and lends none). */
  readonly connect: (() => Promise<PooledSqlConnection>) | undefined;

  constructor(
    client: SqlClient,
    close: () => Promise<void>,
    /** Where the data is, without credentials, for the start-up log line. */
    readonly description: string,
    readonly queryTimeoutMs: number,
    pool?: SqlPool,
  ) {
    this.#client = client;
    this.#close = close;
    this.connect = pool === undefined ? undefined : () => pool.connect();
  }

  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<SqlResult<Row>> {
    return this.#client.query<Row>(text, params);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#close();
  }
}

/** The server and database of a URL, never its user name or password. */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `PostgreSQL at ${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL)';
  }
}

/** The library's store tables, then the example's posts tables; both idempotent and lock-serialised. */
async function migrateAll(client: SqlClient): Promise<void> {
  await migrate(client);
  await migrateTenantPosts(client);
}

/**
 * Connects (`DATABASE_URL` through `pg`, else embedded PGlite in `dataDir`) and runs the store
 * migrations and the posts schema, which are idempotent and safe when several instances start at
 * once. The drivers are loaded only when used, so the in-memory tests never load either.
 *
 * @example
 * const database = await openTenantsDatabase({ url: undefined, dataDir: '/tmp/tenants', queryTimeoutMs: 2000 });
 */
export async function openTenantsDatabase(config: TenantsDatabaseConfig): Promise<TenantsDatabase> {
  let database: TenantsDatabase;
  if (config.url !== undefined) {
    const { default: pg } = await import('pg');
    // Migrations on their own connection, without the serving timeouts: a twin instance may hold
    // the migration lock for a moment, and waiting for it is fine at start.
    const migrator = new pg.Client({ connectionString: config.url, connectionTimeoutMillis: 10_000 });
    await migrator.connect();
    try {
      await migrateAll(migrator);
    } finally {
      await migrator.end();
    }
    const pool = new pg.Pool({
      connectionString: config.url,
      max: 10,
      // Bounded waits, so a database that is down or unreachable turns into a 503 quickly: getting
      // a connection, and (server-side) each statement. No `query_timeout`: that one is pg's own
      // client-side clock, which throws a statement away while the server may still run and
      // commit it (a rotation answered 503 and committed later signs the user out). The stores
      // bound every query themselves (queryTimeoutMs) and send a write's COMMIT only in time.
      connectionTimeoutMillis: config.queryTimeoutMs,
      statement_timeout: config.queryTimeoutMs,
      idleTimeoutMillis: 30_000,
    });
    // An idle connection dropped by the server (restart, failover) must not crash the process:
    // the pool discards it and opens a new one on the next query.
    pool.on('error', (error) => console.error(`[tenants] database connection lost: ${error.message}`));
    database = new TenantsDatabase(pool, () => pool.end(), describeUrl(config.url), config.queryTimeoutMs, pool);
  } else {
    const { PGlite } = await import('@electric-sql/pglite');
    await mkdir(config.dataDir, { recursive: true });
    const lite = await PGlite.create(config.dataDir);
    database = new TenantsDatabase(lite, () => lite.close(), `embedded PGlite in ${config.dataDir}`, config.queryTimeoutMs);
    try {
      await migrateAll(database);
    } catch (error) {
      await database.onApplicationShutdown();
      throw error;
    }
  }
  return database;
}
