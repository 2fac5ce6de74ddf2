// Sign-up's account and its mail job in one PostgreSQL transaction (PostgresAccountStore,
// accountMailJobs with pg-boss on the same database): the sign-up answers only once both are
// committed; a connection that dies after both writes and before COMMIT (the server ends it) and
// a process killed there (SIGKILL) leave neither; and the job, run by a worker, sends the mail.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, createToken, defineFactory, defineModule, type App } from '../../lib/index.js';
import { accountMailJobs, defineAuthModule, InMemoryRefreshTokenStore, type AccountMailQueue, type AccountService } from '../../lib/auth/index.js';
import { PostgresAccountStore } from '../../lib/auth/postgres/index.js';
import { capturingMailer, countingHasher, tokenOf } from '../../lib/auth/accounts/account-service.test-helper.js';
import { JobsModule, pgBossJobEngine } from '../../lib/jobs/index.js';
import { migrate, SQL_CLIENT } from '../../lib/postgres/index.js';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../postgres/support/test-database.js';
import { createTestLogger } from '../support/test-logger.js';
import { until } from './job-engine-contract.js';

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const pgBossRuns = major > 22 || (major === 22 && minor >= 12);
const Claims = z.object({ sub: z.string(), roles: z.array(z.string()), sid: z.string().optional() });
const ACCOUNT_STORE = createToken<PostgresAccountStore<z.infer<typeof Claims>>>('AccountStore');

describe.skipIf(TEST_DATABASE_URL === undefined || !pgBossRuns)(`sign-up and its mail in one transaction (TEST_DATABASE_URL, Node >= 22.12; this is ${process.versions.node})`, () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  let app: App;
  let accounts: AccountService<z.infer<typeof Claims>>;
  const mailer = capturingMailer();
  /** When set, runs inside the sign-up's transaction after its mail job was written. */
  let afterMailWritten: ((transaction: { query(text: string): Promise<{ rows: unknown[] }> }) => Promise<void>) | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new pg.Pool({ connectionString: database.url, max: 6 });
    await migrate(pool);
    const auth = defineAuthModule(Claims);
    const intents = accountMailJobs({ joinsTransactions: true, backoff: { delayMs: 500, exponential: false } });
    // The real queue, with a hook between the job's INSERT and the transaction's COMMIT.
    const queue: AccountMailQueue = {
      joinsTransactions: true,
      serve: (deliver) => intents.queue.serve(deliver),
      queue: async (intent, transaction) => {
        await intents.queue.queue(intent, transaction);
        if (transaction !== undefined) await afterMailWritten?.(transaction);
      },
    };
    const Db = defineModule({
      name: 'Db',
      providers: [{ provide: SQL_CLIENT, useValue: pool }, defineFactory(ACCOUNT_STORE, [SQL_CLIENT], (db) => new PostgresAccountStore<z.infer<typeof Claims>>(db))],
      exports: [SQL_CLIENT, ACCOUNT_STORE],
    });
    const { logger } = createTestLogger();
    app = await createApp(
      defineModule({
        name: 'App',
        imports: [
          JobsModule.forRoot({ engine: pgBossJobEngine({ connectionString: database.url, schema: 'account_mail', pollingIntervalSeconds: 0.5 }), shutdownGraceMs: 0 }),
          auth.AuthModule.forRoot({
            secret: 'a-test-secret-that-is-long-enough-for-hs256!',
            issuing: { refreshTokenStore: InMemoryRefreshTokenStore, passwordHasher: await countingHasher() },
            accounts: { store: { useExisting: ACCOUNT_STORE }, imports: [Db], links: 'https://app.acme.test', mailer, mailQueue: queue, newAccountClaims: ({ subject }) => ({ sub: subject, roles: ['member'] }) },
          }),
        ],
        providers: [...intents.providers],
      }),
      { logger },
    );
    accounts = app.get(auth.ACCOUNT_SERVICE);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await pool?.end();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await database?.drop();
  });

  const accountRows = async (email: string) => (await pool.query('SELECT subject FROM tessera_accounts WHERE identifier = $1', [email])).rows.length;
  const mailJobs = async (email: string) => (await pool.query(`SELECT 1 FROM account_mail.job WHERE name = 'tessera.account-mail' AND data->'payload'->>'address' = $1`, [email])).rows.length;

  it('answers a sign-up once its account and its mail job are both committed', async () => {
    await accounts.signUp('ada@acme.test', 'correct horse battery');
    expect([await accountRows('ada@acme.test'), await mailJobs('ada@acme.test')], 'the account and its mail job, as the answer is given').toEqual([1, 1]);
  });

  it('leaves neither the account nor its mail when the connection dies between the writes and COMMIT', async () => {
    afterMailWritten = async (transaction) => {
      const { rows } = (await transaction.query('SELECT pg_backend_pid() AS pid')) as { rows: { pid: number }[] };
      await pool.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
    };
    try {
      await expect(accounts.signUp('bob@acme.test', 'correct horse battery'), 'no answer but a failure').rejects.toMatchObject({ status: 503 });
    } finally {
      afterMailWritten = undefined;
    }
    expect([await accountRows('bob@acme.test'), await mailJobs('bob@acme.test')], 'nothing of the sign-up was committed').toEqual([0, 0]);
    await accounts.signUp('bob@acme.test', 'correct horse battery');
    expect([await accountRows('bob@acme.test'), await mailJobs('bob@acme.test')], 'signing up again creates both').toEqual([1, 1]);
  });

  it('leaves neither the account nor its mail when the process signing up is killed (SIGKILL) between the writes and COMMIT', async () => {
    const root = join(import.meta.dirname, '..', '..');
    const child = spawn(process.execPath, ['--import', './scripts/register-swc.mjs', 'test/jobs/support/sign-up-process.ts', database.url, 'account_mail', 'dee@acme.test'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await until(() => output.includes('written'), 'the child to write the account and its mail job', 30_000);
    } finally {
      child.kill('SIGKILL');
    }
    // The server rolls back once it sees the connection gone: no session of the killed process is left in a transaction.
    const inTransaction = async () => (await pool.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`)).rows[0].n as number;
    const end = Date.now() + 10_000;
    while ((await inTransaction()) > 0 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await inTransaction(), 'the killed transaction is over').toBe(0);
    expect([await accountRows('dee@acme.test'), await mailJobs('dee@acme.test')], 'nothing of the killed sign-up was committed').toEqual([0, 0]);
    await accounts.signUp('dee@acme.test', 'correct horse battery');
    expect([await accountRows('dee@acme.test'), await mailJobs('dee@acme.test')], 'signing up again creates both').toEqual([1, 1]);
  }, 60_000);

  it('runs the mail job: the verification mail arrives with a link that verifies', async () => {
    await accounts.signUp('cyd@acme.test', 'correct horse battery');
    await until(() => mailer.sent.some((mail) => mail.to === 'cyd@acme.test'), 'the account-mail job to send the verification mail', 15_000);
    const mail = mailer.sent.find((sent) => sent.to === 'cyd@acme.test');
    await expect(accounts.verifyEmail(tokenOf(mail)), 'the job issued a working link').resolves.toBeUndefined();
  });
});
