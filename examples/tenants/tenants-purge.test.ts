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

  /** Starts the tenants app on the PostgreSQL stores with a per-second purge; answers the first purge's counts, then closes it. */
  async function firstPurge(): Promise<Record<string, number> | undefined> {
    const config = readTenantsConfig({ AUTH_SECRET: 'a-test-secret-that-is-long-enough-for-hs256!', PURGE_CRON: '* * * * * *' }, () => undefined);
    const { logger, log } = createTestLogger();
    const app = await createApp(createTenantsModule(config, { stores: (clock) => createPostgresTenantsStores(pool, clock ?? systemClock, config), jobs: memoryJobEngine() }), { logger });
    try {
      const end = Date.now() + 5_000;
      while (!log.infos.some((line) => line.message.startsWith('tenants: purged')) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
      return log.infos.find((line) => line.message.startsWith('tenants: purged'))?.fields.removed as Record<string, number> | undefined;
    } finally {
      await app.close();
    }
  }

  it('sweeps the ended windows of the mail limit, keeping the current one', async () => {
    await pool.query(`INSERT INTO tessera_rate_limits (name, key, window_start_ms, hits) VALUES ('tenants-account-mails', 'old', 0, 1), ('tenants-account-mails', 'now', $1, 1)`, [Date.now()]);
    expect(await firstPurge(), 'the purge ran and swept the ended mail window').toMatchObject({ mailWindows: 1 });
    const { rows } = await pool.query(`SELECT key FROM tessera_rate_limits WHERE name = 'tenants-account-mails' ORDER BY key`);
    expect(rows.map((row) => row.key), 'the current window is kept').toEqual(['now']);
  });

  it('sweeps the ended windows of the sign-in throttle and the account routes, keeping the current ones', async () => {
    // A 60 s sign-in tier and the 600 s per-client sign-up budget, both defaults; ended and current windows of each.
    await pool.query(
      `INSERT INTO tessera_rate_limits (name, key, window_start_ms, hits) VALUES
         ('sign-in-account-address-60s', 'old', 0, 3), ('sign-in-account-address-60s', 'now', $1, 1),
         ('account-sign-up-client-600s', 'old', 0, 2), ('account-sign-up-client-600s', 'now', $1, 1)`,
      [Date.now()],
    );
    expect(await firstPurge(), 'the purge swept both ended throttle windows').toMatchObject({ throttleWindows: 2 });
    const { rows } = await pool.query(`SELECT name, key FROM tessera_rate_limits WHERE name LIKE 'sign-in-%' OR name LIKE 'account-%' ORDER BY name`);
    expect(rows.map((row) => `${row.name}/${row.key}`), 'the current windows are kept').toEqual(['account-sign-up-client-600s/now', 'sign-in-account-address-60s/now']);
  });

  it('deletes expired second-factor challenges, pending second-factor sign-ins and outside sign-in flows', async () => {
    const past = new Date(Date.now() - 60_000);
    const future = new Date(Date.now() + 600_000);
    await pool.query(`INSERT INTO tessera_factor_challenges (challenge_hash, purpose, subject, expires_at) VALUES ('old', 'passkey-sign-in', NULL, $1), ('live', 'passkey-sign-in', NULL, $2)`, [past, future]);
    await pool.query(`INSERT INTO tessera_pending_sign_ins (token_hash, subject, expires_at) VALUES ('old', 'u1', $1), ('live', 'u1', $2)`, [past, future]);
    await pool.query(`INSERT INTO tessera_sign_in_flows (state_hash, flow, expires_at) VALUES ('old', '{}', $1), ('live', '{}', $2)`, [past, future]);
    expect(await firstPurge(), 'the purge removed the expired rows').toMatchObject({ secondFactors: 2, signInFlows: 1 });
    const left = await pool.query(
      `SELECT 'challenge/' || challenge_hash AS row FROM tessera_factor_challenges UNION ALL SELECT 'pending/' || token_hash FROM tessera_pending_sign_ins UNION ALL SELECT 'flow/' || state_hash FROM tessera_sign_in_flows ORDER BY 1`,
    );
    expect(left.rows.map((row) => row.row), 'only the live rows are left').toEqual(['challenge/live', 'flow/live', 'pending/live']);
  });
});
