import { z } from 'zod';
import { createToken, TesseraError, type ProviderInput } from '../../index.js';
import { defineJob, JOBS, type JobBackoff, type JobDefinition, type JobQueue } from '../../jobs/index.js';
import type { AccountMailIntent, AccountMailQueue } from './account-mail-intent.js';

/**
 * Options of {@link accountMailJobs}.
 *
 * @example
 * accountMailJobs({ joinsTransactions: true, retries: 8 });
 */
export interface AccountMailJobsOptions {
  /** The job's name (its queue). Default `tessera.account-mail`. */
  readonly name?: string;
  /**
   * Whether the job engine is `pgBossJobEngine` on the database of the account store, so that
   * sign-up's account and its mail commit in one transaction. Default false (one write after the other).
   */
  readonly joinsTransactions?: boolean;
  /** Attempts after the first. Default 10. */
  readonly retries?: number;
  /** Default: 5 s, doubling, at most 10 min. */
  readonly backoff?: Partial<JobBackoff>;
}

const address = z.string().min(1);
const intentSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('verifyEmail'), subject: z.string().min(1), address }),
  z.object({ kind: z.literal('signUpAttempt'), address }),
  z.object({ kind: z.literal('requestVerification'), address }),
  z.object({ kind: z.literal('resetPassword'), address }),
  z.object({ kind: z.literal('confirmEmailChange'), subject: z.string().min(1), address, oldEmail: address }),
  z.object({ kind: z.literal('emailChanged'), oldEmail: address, newEmail: address }),
  z.object({ kind: z.literal('passwordChanged'), email: address }),
]);

/**
 * The account service's mails as durable jobs: give `queue` as `accounts.mailQueue` and list
 * `providers` in a module of the app (which imports `JobsModule.forRoot`). Each request then
 * stores its mail on the job engine before it answers (the address, what to send: no token yet),
 * and the job, on any worker instance, issues the link's token, applies the per-address limit and
 * hands the mail to the accounts' `mailer`; it is retried with backoff while that fails. So a
 * crash after the answer loses no mail, and with `joinsTransactions` (pg-boss on the account
 * store's database, `PostgresAccountStore`) a crash between sign-up's account write and its mail
 * loses neither alone. Pair it with `mailJobs` as the `mailer`, so an SMTP outage is retried on
 * the mail's own job and a retried account-mail job never issues a second token for one mail.
 *
 * @example
 * const intents = accountMailJobs({ joinsTransactions: true });
 * const mail = mailJobs(smtpMailer(process.env.SMTP_URL!));
 * defineModule({
 *   name: 'App',
 *   imports: [JobsModule.forRoot({ engine }), AuthModule.forRoot({ ..., accounts: { ..., mailer: mail.mailer, mailQueue: intents.queue } })],
 *   providers: [...mail.providers, ...intents.providers],
 * });
 */
export function accountMailJobs(options: AccountMailJobsOptions = {}): { readonly queue: AccountMailQueue; readonly job: JobDefinition<AccountMailIntent>; readonly providers: readonly ProviderInput[] } {
  let deliver: ((intent: AccountMailIntent) => Promise<void>) | undefined;
  let jobs: JobQueue | undefined;
  const name = options.name ?? 'tessera.account-mail';
  const job = defineJob({
    name,
    payload: intentSchema,
    retries: options.retries ?? 10,
    backoff: { delayMs: 5_000, exponential: true, maxDelayMs: 600_000, ...options.backoff },
    timeoutMs: 120_000,
    handler: async (intent) => {
      // The account service registers itself when it is built, with the app: a run before that is retried.
      if (deliver === undefined) throw new TesseraError('JOBS_UNKNOWN', `accountMailJobs: no account service serves "${name}" (give its queue as accounts.mailQueue).`);
      await deliver(intent);
    },
  }) as JobDefinition<AccountMailIntent>;
  const binding = { provide: createToken<JobQueue>(`AccountMailJobsQueue ${name}`), inject: [JOBS], useFactory: (queue: JobQueue) => (jobs = queue) };
  const queue: AccountMailQueue = {
    joinsTransactions: options.joinsTransactions ?? false,
    async queue(intent, transaction) {
      if (jobs === undefined) throw new TesseraError('JOBS_UNKNOWN', `accountMailJobs: list its providers in a module of the app before the accounts promise a mail (job "${name}").`);
      await jobs.enqueue(job, intent, transaction === undefined ? {} : { transaction });
    },
    serve(handler) {
      deliver = handler;
    },
  };
  return { queue, job, providers: [job, binding] };
}
