import { createToken, type Token } from '../index.js';
import type { JobClass, JobDefinition } from './define-job.js';
import type { FailedJob, JobTransaction } from './job-engine.js';

/**
 * Options of one `enqueue`.
 *
 * @example
 * await jobs.enqueue(welcomeMail, { to }, { delayMs: 60_000, key: `welcome-${accountId}` });
 */
export interface EnqueueOptions {
  /** Not run before this many ms from now. */
  readonly delayMs?: number;
  /** At most one job with this key is enqueued (while the engine keeps it): a second enqueue answers undefined. */
  readonly key?: string;
  /** PostgreSQL engine only: enqueue inside this transaction, so the job exists exactly when the write that caused it commits. */
  readonly transaction?: JobTransaction;
}

/**
 * The app's jobs, injected as `JOBS` in any module once `JobsModule.forRoot` is imported:
 * enqueue a job (its payload typed and checked by the job's schema), and the dead letters an
 * operator lists and retries.
 *
 * @example
 * defineFactory(Signup, [JOBS], (jobs) => new Signup(jobs));
 * await jobs.enqueue(welcomeMail, { to: 'ada@example.com' });
 */
export interface JobQueue {
  /** The engine's kind: `memory`, `postgres` or `redis`. */
  readonly engine: string;
  /**
   * Enqueues a run of `job`. The payload is checked by the job's schema first: one that fails is
   * refused with a `JobPayloadError` naming each issue, and nothing is enqueued. Answers the
   * job's id, or undefined when `key` was already enqueued.
   */
  enqueue<P>(job: JobDefinition<P> | JobClass<P>, payload: NoInfer<P>, options?: EnqueueOptions): Promise<string | undefined>;
  /** The runs of `job` that used up their attempts (the dead letters), oldest first. Default limit 100. */
  failed(job: JobDefinition<unknown> | JobClass | string, options?: { readonly limit?: number }): Promise<FailedJob[]>;
  /** Puts a failed run back in its queue with fresh attempts; false when there is no such failed run. */
  retry(job: JobDefinition<unknown> | JobClass | string, id: string): Promise<boolean>;
}

/**
 * The app's {@link JobQueue}, provided by `JobsModule.forRoot` (a global module).
 *
 * @example
 * defineFactory(Signup, [JOBS], (jobs) => new Signup(jobs));
 */
export const JOBS: Token<JobQueue> = createToken<JobQueue>('JOBS');
