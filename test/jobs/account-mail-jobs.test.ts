// Account mails as jobs on PostgreSQL (pg-boss): the SMTP server is down when a person signs up,
// the instance that took the sign-up goes away, the SMTP server comes back: another instance
// delivers the verification mail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, defineModule, type App } from '../../lib/index.js';
import { defineAuthModule, InMemoryRefreshTokenStore, mailJobs, smtpMailer } from '../../lib/auth/index.js';
import { InMemoryAccountStore } from '../../lib/auth/accounts/in-memory-account-store.js';
import { countingHasher } from '../../lib/auth/accounts/account-service.test-helper.js';
import { JobsModule, pgBossJobEngine } from '../../lib/jobs/index.js';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../postgres/support/test-database.js';
import { startMailbox } from '../support/test-mailbox.js';
import { createTestLogger, type RecordedLog } from '../support/test-logger.js';
import { until } from './job-engine-contract.js';

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const pgBossRuns = major > 22 || (major === 22 && minor >= 12);
const Claims = z.object({ sub: z.string(), roles: z.array(z.string()), sid: z.string().optional() });

describe.skipIf(TEST_DATABASE_URL === undefined || !pgBossRuns)(`account mails as jobs (TEST_DATABASE_URL, Node >= 22.12; this is ${process.versions.node})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  }, 30_000);
  afterAll(async () => {
    await new Promise((resolve) => setTimeout(resolve, 500));
    await database?.drop();
  });

  async function instance(smtpUrl: string): Promise<{ app: App; log: RecordedLog; signUp: (email: string) => Promise<void> }> {
    const auth = defineAuthModule(Claims);
    const mail = mailJobs(smtpMailer(smtpUrl, { from: 'Acme <no-reply@acme.test>' }), { retries: 30, backoff: { delayMs: 1_000, exponential: false } });
    const { logger, log } = createTestLogger();
    const app = await createApp(
      defineModule({
        name: 'App',
        imports: [
          JobsModule.forRoot({ engine: pgBossJobEngine({ connectionString: database.url, schema: 'mail_jobs', pollingIntervalSeconds: 0.5 }), shutdownGraceMs: 0 }),
          auth.AuthModule.forRoot({
            secret: 'a-test-secret-that-is-long-enough-for-hs256!',
            issuing: { refreshTokenStore: InMemoryRefreshTokenStore, passwordHasher: await countingHasher() },
            accounts: { store: InMemoryAccountStore, links: 'https://app.acme.test', mailer: mail.mailer, newAccountClaims: ({ subject }) => ({ sub: subject, roles: ['member'] }) },
          }),
        ],
        providers: [...mail.providers],
      }),
      { logger },
    );
    const accounts = app.get(auth.ACCOUNT_SERVICE);
    return {
      app,
      log,
      signUp: async (email) => {
        await accounts.signUp(email, 'correct horse battery');
        await accounts.settled();
      },
    };
  }

  it('delivers the verification mail from another instance once the SMTP server is back', async () => {
    const first = await startMailbox();
    const smtpUrl = first.url;
    await first.close();
    const a = await instance(smtpUrl);
    await a.signUp('dora@acme.test');
    await until(() => a.log.warnings.some((line) => line.message === 'job attempt failed, retrying'), 'a delivery attempt to fail while SMTP is down', 15_000);
    await a.app.close();
    const mailbox = await startMailbox(Number(new URL(smtpUrl).port));
    const b = await instance(smtpUrl);
    try {
      const mail = await mailbox.next('dora@acme.test', 20_000);
      expect(mail.text, 'the verification link arrived').toMatch(/https:\/\/app\.acme\.test\/\S*token=/);
      await until(() => b.log.infos.some((line) => line.fields.job === 'tessera.mail' && line.fields.outcome === 'completed'), 'the delivery to be logged');
      const delivered = b.log.infos.find((line) => line.fields.job === 'tessera.mail' && line.fields.outcome === 'completed');
      expect(delivered?.fields.attempt, 'a retry on the second instance delivered it').toBeGreaterThan(1);
    } finally {
      await b.app.close();
      await mailbox.close();
    }
  }, 60_000);
});
