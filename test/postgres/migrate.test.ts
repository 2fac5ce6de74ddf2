// Migrations: idempotent, recorded in tessera_migrations, safe when several instances start at
// once; and the driver contract: pg's Pool/Client/PoolClient and PGlite are SqlClients as they are.
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from '../../lib/postgres/index.js';
import type { SqlClient } from '../../lib/postgres/index.js';
import { createMigratedPGlite } from './support/pglite.js';
import { createTestDatabase, TEST_DATABASE_URL, createTestPool } from './support/test-database.js';

/** Compile-time proof (tsc checks this file) that both drivers satisfy the interface unchanged. */
export function driversAreSqlClients(pool: pg.Pool, client: pg.Client, pooled: pg.PoolClient, lite: PGlite): SqlClient[] {
  return [pool, client, pooled, lite];
}

const LATEST = MIGRATIONS.at(-1)?.version ?? 0;
const TABLES = [
  'tessera_account_tokens',
  'tessera_accounts',
  'tessera_api_keys',
  'tessera_factor_challenges',
  'tessera_idempotency',
  'tessera_identities',
  'tessera_migrations',
  'tessera_passkeys',
  'tessera_pending_sign_ins',
  'tessera_rate_limits',
  'tessera_recovery_codes',
  'tessera_refresh_tokens',
  'tessera_session_factors',
  'tessera_sign_in_flows',
  'tessera_totp',
];

async function tables(client: SqlClient): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_name LIKE 'tessera\\_%' AND table_schema = current_schema() ORDER BY 1",
    [],
  );
  return rows.map((r) => r.name);
}

describe('migrate on PGlite', () => {
  it('creates every table once, records the version, and is a no-op when run again', async () => {
    const db = await createMigratedPGlite();
    try {
      expect(await migrate(db)).toEqual({ version: LATEST });
      expect(await migrate(db)).toEqual({ version: LATEST });
      expect(await tables(db)).toEqual(TABLES);
      const { rows } = await db.query<{ version: number }>('SELECT version FROM tessera_migrations ORDER BY version');
      expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    } finally {
      await db.close();
    }
  });
});


describe.skipIf(TEST_DATABASE_URL === undefined)('migrate on a real PostgreSQL server (TEST_DATABASE_URL)', () => {
  it('10 instances migrating one empty database at once all succeed, and the schema is made once', async () => {
    const database = await createTestDatabase();
    const pools = Array.from({ length: 10 }, () => createTestPool(database.url, 1));
    try {
      const results = await Promise.all(pools.map((pool) => migrate(pool)));
      expect(results).toEqual(pools.map(() => ({ version: LATEST })));
      const first = pools[0] as pg.Pool;
      expect(await tables(first)).toEqual(TABLES);
      expect((await first.query('SELECT count(*)::int AS n FROM tessera_migrations')).rows[0]).toEqual({ n: MIGRATIONS.length });
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
      await database.drop();
    }
  });
});
