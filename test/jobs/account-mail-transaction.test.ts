// Each account write that mails, and its mail job, in one PostgreSQL transaction
// (PostgresAccountStore, accountMailJobs with pg-boss on the same database): sign-up's account, a
// password reset's new hash and an e-mail change's move, each with its mail. Each answers only
// once both are committed; a connection that dies after both writes and before COMMIT (the server
// ends it) and a process killed there (SIGKILL) leave neither; and the job, run by a worker,
// sends the mail.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, createToken, defineFactory, defineModule, type App } from '../../lib/index.js';
import { accountMailJobs, defineAuthModule, InMemoryRefreshTokenStore, type AccountMailQueue, type AccountService } from '../../lib/auth/index.js';
import { PostgresAccountStore } from '../../lib/auth/postgres/index.js';
import { capturingMailer, countingHasher, tokenOf } from '../../lib/auth/accounts/account-service.test-helper.js';
import { generateOpaqueToken, hashOpaqueToken } from '../../lib/auth/sessions/issuing/opaque-token.js';
import type { AccountTokenPurpose } from '../../lib/auth/accounts/account-store.js';
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

  /** Runs test/jobs/support/sign-up-process.ts with `args`, SIGKILLs it once it wrote and before COMMIT, and waits until the server rolled back. */
  async function killedMidTransaction(args: readonly string[]): Promise<void> {
    const root = join(import.meta.dirname, '..', '..');
    const child = spawn(process.execPath, ['--import', './scripts/register-swc.mjs', 'test/jobs/support/sign-up-process.ts', database.url, 'account_mail', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await until(() => output.includes('written'), 'the child to write and queue its mail job', 30_000);
    } finally {
      child.kill('SIGKILL');
    }
    // The server rolls back once it sees the connection gone: no session of the killed process is left in a transaction.
    const inTransaction = async () => (await pool.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`)).rows[0].n as number;
    const end = Date.now() + 10_000;
    while ((await inTransaction()) > 0 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await inTransaction(), 'the killed transaction is over').toBe(0);
  }

  /** Ends the connection of the transaction the next mail job is written in, before its COMMIT. */
  function killNextTransaction(): void {
    afterMailWritten = async (transaction) => {
      const { rows } = (await transaction.query('SELECT pg_backend_pid() AS pid')) as { rows: { pid: number }[] };
      await pool.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
    };
  }

  /** An account as sign-up makes it (its verification job is not what these tests count). */
  async function accountFor(email: string): Promise<{ subject: string; passwordHash: string }> {
    await accounts.signUp(email, 'correct horse battery');
    const { rows } = await pool.query('SELECT subject, password_hash FROM tessera_accounts WHERE identifier = $1', [email]);
    return { subject: rows[0].subject as string, passwordHash: rows[0].password_hash as string };
  }

  /** A working link token of `purpose` for the account, written as the service writes one. */
  async function linkToken(subject: string, purpose: AccountTokenPurpose, email: string): Promise<string> {
    const token = generateOpaqueToken();
    await new PostgresAccountStore(pool).issueToken({ tokenHash: hashOpaqueToken(token), subject, purpose, email, expiresAt: new Date(Date.now() + 3_600_000) });
    return token;
  }

  const passwordHashOf = async (subject: string) => (await pool.query('SELECT password_hash FROM tessera_accounts WHERE subject = $1', [subject])).rows[0]?.password_hash as string;
  const emailOf = async (subject: string) => (await pool.query('SELECT identifier FROM tessera_accounts WHERE subject = $1', [subject])).rows[0]?.identifier as string;
  const passwordChangedJobs = async (email: string) => (await pool.query(`SELECT 1 FROM account_mail.job WHERE name = 'tessera.account-mail' AND data->'payload'->>'kind' = 'passwordChanged' AND data->'payload'->>'email' = $1`, [email])).rows.length;
  const emailChangedJobs = async (oldEmail: string) => (await pool.query(`SELECT 1 FROM account_mail.job WHERE name = 'tessera.account-mail' AND data->'payload'->>'kind' = 'emailChanged' AND data->'payload'->>'oldEmail' = $1`, [oldEmail])).rows.length;

  const accountRows = async (email: string) => (await pool.query('SELECT subject FROM tessera_accounts WHERE identifier = $1', [email])).rows.length;
  const mailJobs = async (email: string) => (await pool.query(`SELECT 1 FROM account_mail.job WHERE name = 'tessera.account-mail' AND data->'payload'->>'address' = $1`, [email])).rows.length;

  it('answers a sign-up once its account and its mail job are both committed', async () => {
    await accounts.signUp('ada@acme.test', 'correct horse battery');
    expect([await accountRows('ada@acme.test'), await mailJobs('ada@acme.test')], 'the account and its mail job, as the answer is given').toEqual([1, 1]);
  });

  it('leaves neither the account nor its mail when the connection dies between the writes and COMMIT', async () => {
    killNextTransaction();
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
    await killedMidTransaction(['dee@acme.test']);
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

  describe('a password reset: the new password and its "password changed" mail', () => {
    it('answers once the new hash and its mail job are both committed', async () => {
      const { subject, passwordHash } = await accountFor('eve@acme.test');
      await accounts.resetPassword(await linkToken(subject, 'reset-password', 'eve@acme.test'), 'a new horse battery staple');
      expect([(await passwordHashOf(subject)) !== passwordHash, await passwordChangedJobs('eve@acme.test')], 'the new hash and its mail job, as the answer is given').toEqual([true, 1]);
    });

    it('leaves neither when the connection dies between the writes and COMMIT', async () => {
      const { subject, passwordHash } = await accountFor('fay@acme.test');
      const token = await linkToken(subject, 'reset-password', 'fay@acme.test');
      killNextTransaction();
      try {
        await expect(accounts.resetPassword(token, 'a new horse battery staple'), 'no answer but a failure').rejects.toMatchObject({ status: 503 });
      } finally {
        afterMailWritten = undefined;
      }
      expect([await passwordHashOf(subject), await passwordChangedJobs('fay@acme.test')], 'nothing of the reset was committed').toEqual([passwordHash, 0]);
    });

    it('leaves neither when the process resetting is killed (SIGKILL) between the writes and COMMIT', async () => {
      const { subject, passwordHash } = await accountFor('gil@acme.test');
      await killedMidTransaction(['reset', await linkToken(subject, 'reset-password', 'gil@acme.test')]);
      expect([await passwordHashOf(subject), await passwordChangedJobs('gil@acme.test')], 'nothing of the killed reset was committed').toEqual([passwordHash, 0]);
    }, 60_000);
  });

  describe('an e-mail change: the move and the notice to the old address', () => {
    it('answers once the new address and the notice job are both committed', async () => {
      const { subject } = await accountFor('hal@acme.test');
      await accounts.confirmEmailChange(await linkToken(subject, 'change-email', 'hal.new@acme.test'));
      expect([await emailOf(subject), await emailChangedJobs('hal@acme.test')], 'the new address and the notice job, as the answer is given').toEqual(['hal.new@acme.test', 1]);
    });

    it('leaves neither when the connection dies between the writes and COMMIT', async () => {
      const { subject } = await accountFor('ida@acme.test');
      const token = await linkToken(subject, 'change-email', 'ida.new@acme.test');
      killNextTransaction();
      try {
        await expect(accounts.confirmEmailChange(token), 'no answer but a failure').rejects.toMatchObject({ status: 503 });
      } finally {
        afterMailWritten = undefined;
      }
      expect([await emailOf(subject), await emailChangedJobs('ida@acme.test')], 'nothing of the change was committed').toEqual(['ida@acme.test', 0]);
    });

    it('leaves neither when the process confirming is killed (SIGKILL) between the writes and COMMIT', async () => {
      const { subject } = await accountFor('jo@acme.test');
      await killedMidTransaction(['confirm-email', await linkToken(subject, 'change-email', 'jo.new@acme.test')]);
      expect([await emailOf(subject), await emailChangedJobs('jo@acme.test')], 'nothing of the killed change was committed').toEqual(['jo@acme.test', 0]);
    }, 60_000);

    it('queues no notice, and moves nothing, when the new address was taken meanwhile', async () => {
      const { subject } = await accountFor('kim@acme.test');
      const token = await linkToken(subject, 'change-email', 'lou@acme.test');
      await accountFor('lou@acme.test');
      await expect(accounts.confirmEmailChange(token), 'the link').rejects.toMatchObject({ status: 400 });
      expect([await emailOf(subject), await emailChangedJobs('kim@acme.test')]).toEqual(['kim@acme.test', 0]);
    });
  });
});
