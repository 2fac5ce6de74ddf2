import type { SqlClient } from './sql-client.js';

/**
 * One connection lent by a {@link SqlPool}, held for several statements. `release()` gives it
 * back; `release(true)` closes it instead, which is how a write that ran out of time is taken
 * back: the server rolls back a transaction whose connection is gone.
 *
 * @example
 * const connection = await pool.connect();
 * try { await connection.query('SELECT 1'); } finally { connection.release(); }
 */
export interface PooledSqlConnection extends SqlClient {
  release(destroy?: boolean | Error): void;
}

/**
 * A {@link SqlClient} that can also lend a connection, as `pg`'s `Pool` does. The stores find this
 * out for themselves (nothing to configure): given one, they run each write in a transaction on a
 * lent connection and send COMMIT only while the answer can still be given in time, so a 503
 * means that nothing was committed (docs/production.md, "Failures").
 *
 * @example
 * import pg from 'pg';
 * const pool: SqlPool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 */
export interface SqlPool extends SqlClient {
  connect(): Promise<PooledSqlConnection>;
}

/**
 * Whether `client` lends connections. A single connection has `connect()` too, but it opens that
 * connection rather than lending another: pg's `Client` (it knows its server `processID`) and a
 * connection already lent (it has `release`). Those, PGlite and anything with `query` alone run
 * each statement by itself.
 *
 * @example
 * if (lendsConnections(client)) { const connection = await client.connect(); try { ... } finally { connection.release(); } }
 */
export function lendsConnections(client: SqlClient): client is SqlPool {
  const shape = client as Partial<Record<'connect' | 'release', unknown>>;
  return typeof shape.connect === 'function' && typeof shape.release !== 'function' && !('processID' in client);
}
