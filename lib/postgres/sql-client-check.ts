import type { SqlClient } from './sql-client.js';

/**
 * Refuses, when a store (or the health check, the pub/sub, `migrate`) is built, a client that
 * cannot be a {@link SqlClient}: a wiring mistake (the wrong provider under `SQL_CLIENT`, a pool's
 * config instead of the pool, a dummy object) must fail the boot as what it is, a TypeError naming
 * its `owner` and what is missing, rather than at the first query as "the store is unavailable",
 * which reads as a database outage. The container names the provider being built around it.
 *
 * @example
 * assertSqlClient(client, 'The refresh-token store'); // TypeError: The refresh-token store was given a SQL client that is not a SqlClient: ...
 */
export function assertSqlClient(client: unknown, owner: string): asserts client is SqlClient {
  if (typeof (client as { query?: unknown } | null | undefined)?.query === 'function') return;
  throw new TypeError(
    `${owner} was given a SQL client that is not a SqlClient: ${describe(client)} has no query(text, params) method. ` +
      `Give it a pg Pool (or Client) or a PGlite, e.g. { provide: SQL_CLIENT, useValue: new pg.Pool({ connectionString }) }.`,
  );
}

/**
 * The error for a client that broke the {@link SqlClient} contract while running a statement
 * (its `query` threw instead of returning a promise, or returned something that is not one): a
 * programming error, answered 500, never a 503 that would send clients to retry.
 *
 * @example
 * throw contractBroken('refresh-token', 'find', 'query() returned undefined instead of a promise');
 */
export function contractBroken(store: string, operation: string, what: string): TypeError {
  return new TypeError(`The ${store} store's SQL client is not a SqlClient (${operation}): ${what}.`);
}

/** What the value is, by kind and class name only: a pool's own fields can hold its password. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object' && typeof value !== 'function') return typeof value;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' && name !== 'Object' ? `a ${name}` : `an object`;
}
