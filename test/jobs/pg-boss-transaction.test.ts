// Enqueue in the transaction of the write that causes it (PostgreSQL engine): a rolled-back
// write leaves no job; a committed one runs its job.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, defineModule, type App } from '../../lib/index.js';
import { defineJob, JOBS, JobsModule, pgBossJobEngine } from '../../lib/jobs/index.js';
import { z } from 'zod';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../postgres/support/test-database.js';
import { createTestLogger } from '../support/test-logger.js';
import { until } from './job-engine-contract.js';

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const pgBossRuns = major > 22 || (major === 22 && minor >= 12);

describe.skipIf(TEST_DATABASE_URL === undefined || !pgBossRuns)(`enqueue in a transaction (TEST_DATABASE_URL, Node >= 22.12; this is ${process.versions.node})`, () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  let app: App;
  const ran: string[] = [];
  const welcome = defineJob({ name: 'welcome-in-tx', payload: z.object({ account: z.string() }), handler: ({ account }) => void ran.push(account) });

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new pg.Pool({ connectionString: database.url, max: 3 });
    await pool.query('CREATE TABLE accounts (id text PRIMARY KEY)');
    const { logger } = createTestLogger();
    app = await createApp(defineModule({ name: 'App', imports: [JobsModule.forRoot({ engine: pgBossJobEngine({ connectionString: database.url, schema: 'jobs', pollingIntervalSeconds: 0.5 }) })], providers: [welcome] }), { logger });
  }, 30_000);
  afterAll(async () => {
    await app?.close();
    await pool?.end();
    // pg-boss's LISTEN client finishes closing just after stop() resolves; dropping the database under it would end it with an unheard error.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await database?.drop();
  });

  async function signUp(account: string, outcome: 'COMMIT' | 'ROLLBACK'): Promise<void> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('INSERT INTO accounts (id) VALUES ($1)', [account]);
      await app.get(JOBS).enqueue(welcome, { account }, { transaction: client });
      await client.query(outcome);
    } finally {
      client.release();
    }
  }

  it('a rolled-back write leaves no job; a committed one runs its job', async () => {
    await signUp('rolled-back', 'ROLLBACK');
    await signUp('committed', 'COMMIT');
    await until(() => ran.includes('committed'), 'the committed sign-up’s job to run');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(ran, 'only the committed write’s job ran').toEqual(['committed']);
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM jobs.job WHERE name = 'welcome-in-tx'`);
    expect(rows[0].n, 'one job row exists').toBe(1);
  });
});
