// The tenants app's scheduled purge on PURGE_CRON, on PostgreSQL stores: expired mail tokens and
// ended rate-limit windows are deleted by the job, once per fire across instances.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, systemClock } from '../../lib/index.js';
import { memoryJobEngine } from '../../lib/jobs/index.js';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../../test/postgres/support/test-database.js';
import { createTestLogger } from '../../test/support/test-logger.js';
import { migrate } from '../../lib/postgres/index.js';
import { readTenantsConfig } from './config.js';
import { createPostgresTenantsStores } from './postgres/tenants-stores.js';
import { createTenantsModule } from './tenants-module.js';

describe.skipIf(TEST_DATABASE_URL === undefined)('the tenants purge job (TEST_DATABASE_URL)', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new pg.Pool({ connectionString: database.url, max: 4 });
    await migrate(pool);
  }, 30_000);
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  it('deletes expired mail tokens and ended rate-limit windows on each fire', async () => {
    const config = readTenantsConfig({ AUTH_SECRET: 'a-test-secret-that-is-long-enough-for-hs256!', PURGE_CRON: '* * * * * *' }, () => undefined);
    await pool.query(`INSERT INTO tessera_rate_limits (name, key, window_start_ms, hits) VALUES ('tenants-account-mails', 'old', 0, 1), ('tenants-account-mails', 'now', $1, 1)`, [Date.now()]);
    const { logger, log } = createTestLogger();
    const app = await createApp(createTenantsModule(config, { stores: (clock) => createPostgresTenantsStores(pool, clock ?? systemClock, config), jobs: memoryJobEngine() }), { logger });
    try {
      const end = Date.now() + 5_000;
      while (!log.infos.some((line) => line.message.startsWith('tenants: purged')) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
      const purged = log.infos.find((line) => line.message.startsWith('tenants: purged'));
      expect(purged?.fields.removed, 'the purge ran and swept the ended mail window').toMatchObject({ mailWindows: 1 });
      const { rows } = await pool.query(`SELECT key FROM tessera_rate_limits WHERE name = 'tenants-account-mails' ORDER BY key`);
      expect(rows.map((row) => row.key), 'the current window is kept').toEqual(['now']);
    } finally {
      await app.close();
    }
  });
});
