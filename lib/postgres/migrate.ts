import { MIGRATIONS } from './migrations.js';
import type { Migration } from './migrations.js';
import type { SqlClient } from './sql-client.js';
import { assertSqlClient } from './sql-client-check.js';

/**
 * Advisory-lock key (two int4 halves: "tsra", 1) that serialises concurrent `migrate` calls, e.g.
 * several instances starting at once; unrelated to any application lock with other keys.
 */
const LOCK_KEY = '1953723489, 1';

/**
 * One migration as a single `DO` statement. A `DO` block is one transaction and one statement,
 * so it needs no dedicated connection (any pooled connection may run it, and PGlite's `query`,
 * which takes one statement, can too). Inside it: take the transaction-scoped advisory lock, make
 * sure the version table exists, and apply the migration only if its version is not recorded.
 * The SQL is fixed text from {@link MIGRATIONS}; nothing user-supplied is interpolated.
 */
function migrationStatement(migration: Migration): string {
  if (!Number.isInteger(migration.version) || migration.version < 1) throw new RangeError('a migration version must be a positive integer');
  const name = migration.name.replaceAll("'", "''");
  const body = migration.statements.map((statement) => `    ${statement};`).join('\n');
  return `DO $tessera_migration$
BEGIN
  PERFORM pg_advisory_xact_lock(${LOCK_KEY});
  CREATE TABLE IF NOT EXISTS tessera_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  );
  IF NOT EXISTS (SELECT 1 FROM tessera_migrations WHERE version = ${migration.version}) THEN
${body}
    INSERT INTO tessera_migrations (version, name) VALUES (${migration.version}, '${name}');
  END IF;
END
$tessera_migration$`;
}

/**
 * What {@link migrate} did.
 *
 * @example
 * const { version } = await migrate(pool); // 1
 */
export interface MigrationResult {
  /** The schema version now in the database. */
  readonly version: number;
}

/**
 * Creates or upgrades the tables of the PostgreSQL stores. Idempotent and safe to run from
 * several processes at once (an advisory lock serialises them; each migration is applied in one
 * transaction and recorded in `tessera_migrations`). Run it at start, or once per deploy with
 * `node scripts/postgres/migrate.mjs`. Needs the right to create tables in the current schema.
 *
 * @example
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * await migrate(pool);
 */
export async function migrate(client: SqlClient, migrations: readonly Migration[] = MIGRATIONS): Promise<MigrationResult> {
  assertSqlClient(client, 'migrate');
  for (const migration of migrations) await client.query(migrationStatement(migration), []);
  const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM tessera_migrations', []);
  return { version: Number(rows[0]?.version ?? 0) };
}
