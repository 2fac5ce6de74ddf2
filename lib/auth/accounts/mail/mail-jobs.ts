import { z } from 'zod';
import { createToken, TesseraError, type ProviderInput } from '../../../index.js';
import { defineJob, JOBS, type JobBackoff, type JobDefinition, type JobQueue } from '../../../jobs/index.js';
import type { Mailer, MailMessage } from './mailer.js';

/**
 * Options of {@link mailJobs}.
 *
 * @example
 * mailJobs(smtpMailer(process.env.SMTP_URL!), { retries: 10 });
 */
export interface MailJobsOptions {
  /** The job's name (its queue). Default `tessera.mail`. */
  readonly name?: string;
  /** Attempts after the first. Default 10 (with the default backoff: about 45 minutes of retries). */
  readonly retries?: number;
  /** Default: 5 s, doubling, at most 10 min. */
  readonly backoff?: Partial<JobBackoff>;
}

/**
 * Account mails (or any mail) as durable jobs: `mailer` enqueues each message as a job, and the
 * job hands it to the `transport` (`smtpMailer`), retried with backoff while it refuses (an SMTP
 * outage delays a mail, never loses it), its last failure logged with the job's one log line
 * (`outcome: 'failed'`) and kept as a dead letter `JOBS.failed(job)` lists. List `providers` in a
 * module of the app (which imports `JobsModule.forRoot`) and give `mailer` to the accounts.
 *
 * The message (with its link, so its token) is stored on the job engine until the engine drops
 * the completed job: give the engine a retention no longer than the tokens live.
 *
 * @example
 * const mail = mailJobs(smtpMailer(process.env.SMTP_URL!, { from: 'Acme <no-reply@acme.example>' }));
 * defineModule({
 *   name: 'App',
 *   imports: [JobsModule.forRoot({ engine }), AuthModule.forRoot({ ..., accounts: { ..., mailer: mail.mailer } })],
 *   providers: [...mail.providers],
 * });
 */
export function mailJobs(transport: Mailer, options: MailJobsOptions = {}): { readonly mailer: Mailer; readonly job: JobDefinition<MailMessage>; readonly providers: readonly ProviderInput[] } {
  const job = defineJob({
    name: options.name ?? 'tessera.mail',
    payload: z.object({ to: z.string(), from: z.string().optional(), subject: z.string(), text: z.string(), html: z.string() }),
    retries: options.retries ?? 10,
    backoff: { delayMs: 5_000, exponential: true, maxDelayMs: 600_000, ...options.backoff },
    timeoutMs: 120_000,
    handler: (message) => transport.send(message),
  }) as JobDefinition<MailMessage>;
  let queue: JobQueue | undefined;
  const binding = { provide: createToken<JobQueue>(`MailJobsQueue ${job.name}`), inject: [JOBS], useFactory: (jobs: JobQueue) => (queue = jobs) };
  const mailer: Mailer = {
    async send(message) {
      if (queue === undefined) throw new TesseraError('JOBS_UNKNOWN', `mailJobs: list its providers in a module of the app before sending (job "${job.name}").`);
      await queue.enqueue(job, { to: message.to, ...(message.from === undefined ? {} : { from: message.from }), subject: message.subject, text: message.text, html: message.html });
    },
  };
  return { mailer, job, providers: [job, binding] };
}
