import { createToken } from '../index.js';

/**
 * What a query answers: the rows, and (for drivers that report it) how many rows the statement
 * touched. The stores never rely on `rowCount` (PGlite reports `affectedRows` instead); every
 * statement whose outcome matters says `RETURNING`, so the answer is in `rows`.
 *
 * @example
 * const result: SqlResult<{ id: string }> = await client.query('SELECT id FROM t WHERE id = $1', [id]);
 */
export interface SqlResult<Row> {
  readonly rows: Row[];
  readonly rowCount?: number | null;
}

/**
 * The one thing the PostgreSQL stores need from a driver: run ONE parameterised statement.
 * `pg`'s `Pool`, `Client` and `PoolClient` and PGlite's `PGlite` satisfy it as they are, so
 * `tessera-http/postgres` imports no driver. Give a pool (not a single client) in production:
 * every store operation is one self-contained statement, so any connection may run it, and a
 * pool that also lends connections (a `SqlPool`, as pg's is) gets each write in a transaction
 * whose COMMIT is never sent late.
 *
 * @example
 * import pg from 'pg';
 * const client: SqlClient = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * // or, embedded: const client: SqlClient = await PGlite.create('./data');
 */
export interface SqlClient {
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<SqlResult<Row>>;
}

/**
 * A DI token for the application's {@link SqlClient}, so the store classes can be listed as
 * providers: `defineProvider(PostgresRefreshTokenStore, [SQL_CLIENT])`.
 *
 * @example
 * const DatabaseModule = defineModule({ name: 'DatabaseModule', providers: [{ provide: SQL_CLIENT, useValue: pool }], exports: [SQL_CLIENT] });
 */
export const SQL_CLIENT = createToken<SqlClient>('SqlClient');
