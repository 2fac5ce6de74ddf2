// An account write that mails, in its own process, killed mid-transaction by the test:
// PostgresAccountStore and accountMailJobs (pg-boss, joinsTransactions) as the accounts use them,
// with a queue that, once the write and its mail job are both written and before COMMIT, prints
// `written` and waits for the SIGKILL. The action: a sign-up (of <email>), a password reset or an
// e-mail change's confirmation (with the link's <token>). Usage:
// node --import ./scripts/register-swc.mjs test/jobs/support/sign-up-process.ts <database url> <pg-boss schema> <email>
// node --import ./scripts/register-swc.mjs test/jobs/support/sign-up-process.ts <database url> <pg-boss schema> reset <token>
// node --import ./scripts/register-swc.mjs test/jobs/support/sign-up-process.ts <database url> <pg-boss schema> confirm-email <token>
import pg from 'pg';
import { createApp, defineModule } from '../../../lib/index.js';
import { AccountService, accountMailJobs, type AccountMailQueue } from '../../../lib/auth/index.js';
import { PostgresAccountStore } from '../../../lib/auth/postgres/index.js';
import { capturingMailer, countingHasher } from '../../../lib/auth/accounts/account-service.test-helper.js';
import { JobsModule, pgBossJobEngine } from '../../../lib/jobs/index.js';

const [url, schema, action, token] = process.argv.slice(2) as [string, string, string, string | undefined];
const intents = accountMailJobs({ joinsTransactions: true });
const silent = { error() {}, warn() {}, info() {}, debug() {}, child() { return silent; } };
await createApp(defineModule({ name: 'Web', imports: [JobsModule.forRoot({ engine: pgBossJobEngine({ connectionString: url, schema, maxConnections: 2 }), role: 'web' })], providers: [...intents.providers] }), { logger: silent });
const queue: AccountMailQueue = {
  joinsTransactions: true,
  serve: (deliver) => intents.queue.serve(deliver),
  queue: async (intent, transaction) => {
    await intents.queue.queue(intent, transaction);
    process.stdout.write('written\n');
    await new Promise(() => undefined);
  },
};
interface Claims {
  readonly sub: string;
  readonly roles: string[];
}
const accounts = new AccountService<Claims>({
  store: new PostgresAccountStore<Claims>(new pg.Pool({ connectionString: url, max: 2 })),
  sessions: { revokeAllSessions: async () => undefined, revokeOtherSessions: async () => undefined },
  passwordHasher: await countingHasher(),
  mailer: capturingMailer(),
  links: 'https://app.acme.test',
  newAccountClaims: ({ subject }) => ({ sub: subject, roles: ['member'] }),
  mailQueue: queue,
});
if (action === 'reset') await accounts.resetPassword(token as string, 'a new horse battery staple');
else if (action === 'confirm-email') await accounts.confirmEmailChange(token as string);
else await accounts.signUp(action, 'correct horse battery');
