// The tenants example's database lends its pool's connections on a server (so the stores' writes
// run in transactions whose COMMIT is never sent late) and lends none on PGlite.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTenantsDatabase } from '../../examples/tenants/postgres/tenants-database.js';
import { lendsConnections } from '../../lib/postgres/sql-pool.js';
import { createMigratedPGlite } from './support/pglite.js';
import { createTestDatabase, TEST_DATABASE_URL } from './support/test-database.js';

describe('the tenants database as a SqlClient', () => {
  it('on PGlite, lends no connection: writes run as one statement', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'tessera-tenants-lending-'));
    try {
      await (await createMigratedPGlite(dataDir)).close();
      const database = await openTenantsDatabase({ url: undefined, dataDir, queryTimeoutMs: 2_000 });
      try {
        expect(lendsConnections(database)).toBe(false);
      } finally {
        await database.onApplicationShutdown();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it.skipIf(TEST_DATABASE_URL === undefined)('on a server (TEST_DATABASE_URL), lends its pool\'s connections, which go back to the pool', async () => {
    const created = await createTestDatabase();
    const database = await openTenantsDatabase({ url: created.url, dataDir: '', queryTimeoutMs: 2_000 });
    try {
      expect(lendsConnections(database), 'the stores see a pool').toBe(true);
      const connection = await database.connect!();
      try {
        await expect(connection.query<{ one: number }>('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
      } finally {
        connection.release();
      }
    } finally {
      await database.onApplicationShutdown();
      await created.drop();
    }
  }, 30_000);
});
