// Account mails promised before the answer (accountMailJobs as accounts.mailQueue) on the Redis
// and PostgreSQL engines: an instance that only takes requests answers a sign-up and is closed
// at once (nothing of the mail is left in it: no outbox, no worker); another instance, a worker
// on the same engine and account store, sends the verification mail, whose link verifies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, createToken, defineModule, type App } from '../../lib/index.js';
import { accountMailJobs, defineAuthModule, InMemoryAccountStore, InMemoryRefreshTokenStore, type AccountService } from '../../lib/auth/index.js';
import { capturingMailer, countingHasher, tokenOf } from '../../lib/auth/accounts/account-service.test-helper.js';
import { bullmqJobEngine, JobsModule, pgBossJobEngine, type JobEngine, type JobsRole } from '../../lib/jobs/index.js';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../postgres/support/test-database.js';
import { createTestLogger } from '../support/test-logger.js';
import { until } from './job-engine-contract.js';

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const pgBossRuns = major > 22 || (major === 22 && minor >= 12);
const Claims = z.object({ sub: z.string(), roles: z.array(z.string()), sid: z.string().optional() });
type TestClaims = z.infer<typeof Claims>;
const ACCOUNT_STORE = createToken<InMemoryAccountStore<TestClaims>>('SharedAccountStore');

/** One app instance on `engine` and the shared account store, as `role`. */
async function instance(engine: JobEngine, role: JobsRole, store: InMemoryAccountStore<TestClaims>, mailer = capturingMailer()): Promise<{ app: App; accounts: AccountService<TestClaims>; mailer: ReturnType<typeof capturingMailer> }> {
  const auth = defineAuthModule(Claims);
  const intents = accountMailJobs({ backoff: { delayMs: 200, exponential: false } });
  const { logger } = createTestLogger();
  // The one account store both instances share, as a database would be.
  const Store = defineModule({ name: 'Store', providers: [{ provide: ACCOUNT_STORE, useValue: store }], exports: [ACCOUNT_STORE] });
  const app = await createApp(
    defineModule({
      name: 'App',
      imports: [
        JobsModule.forRoot({ engine, role, shutdownGraceMs: 0 }),
        auth.AuthModule.forRoot({
          secret: 'a-test-secret-that-is-long-enough-for-hs256!',
          issuing: { refreshTokenStore: InMemoryRefreshTokenStore, passwordHasher: await countingHasher() },
          accounts: { store: { useExisting: ACCOUNT_STORE }, imports: [Store], links: 'https://app.acme.test', mailer, mailQueue: intents.queue, newAccountClaims: ({ subject }) => ({ sub: subject, roles: ['member'] }) },
        }),
      ],
      providers: [...intents.providers],
    }),
    { logger },
  );
  return { app, accounts: app.get(auth.ACCOUNT_SERVICE), mailer };
}

// A prefix of its own (other files share this Redis), the same for both instances.
const prefix = `account-mail-${Date.now().toString(36)}`;
const engines: { name: string; skip: string | undefined; engine: () => JobEngine }[] = [
  { name: 'Redis (BullMQ)', skip: TEST_REDIS_URL === undefined ? 'set TEST_REDIS_URL' : undefined, engine: () => bullmqJobEngine({ url: TEST_REDIS_URL as string, prefix }) },
  {
    name: 'PostgreSQL (pg-boss)',
    skip: TEST_DATABASE_URL === undefined ? 'set TEST_DATABASE_URL' : pgBossRuns ? undefined : `pg-boss 12 needs Node >= 22.12; this is ${process.versions.node}`,
    engine: () => pgBossJobEngine({ connectionString: database.url, schema: 'account_mail_engines', pollingIntervalSeconds: 0.5 }),
  },
];
let database: TestDatabase;

for (const { name, skip, engine } of engines) {
  describe.skipIf(skip !== undefined)(skip === undefined ? `account mails promised before the answer on ${name}` : `account mails promised before the answer on ${name} (SKIPPED: ${skip})`, () => {
    beforeAll(async () => {
      if (name.startsWith('PostgreSQL')) database = await createTestDatabase();
    }, 30_000);
    afterAll(async () => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      if (name.startsWith('PostgreSQL')) await database?.drop();
    });

    it('a web instance answers the sign-up and goes away; a worker instance sends the mail', async () => {
      const store = new InMemoryAccountStore<TestClaims>();
      const web = await instance(engine(), 'web', store);
      await web.accounts.signUp('eve@acme.test', 'correct horse battery');
      await web.app.close();
      expect(web.mailer.sent, 'the web instance sent nothing itself').toEqual([]);
      const worker = await instance(engine(), 'worker', store);
      try {
        await until(() => worker.mailer.sent.some((mail) => mail.to === 'eve@acme.test'), `the worker on ${name} to send the verification mail`, 20_000);
        await expect(worker.accounts.verifyEmail(tokenOf(worker.mailer.sent[0])), 'its link verifies').resolves.toBeUndefined();
      } finally {
        await worker.app.close();
      }
    }, 60_000);
  });
}
