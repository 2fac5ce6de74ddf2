import { TesseraError } from '../index.js';
import type { SchemaIssue } from '../internal/schema.js';

/**
 * A payload refused at `enqueue` (or, for a scheduled job, at boot) by the job's schema; nothing
 * was enqueued. `issues` lists each problem with its path.
 *
 * @example
 * try { await jobs.enqueue(welcomeMail, { to: 'nope' }); } catch (error) { if (error instanceof JobPayloadError) console.log(error.issues); }
 */
export class JobPayloadError extends TesseraError {
  readonly job: string;
  readonly issues: readonly SchemaIssue[];

  constructor(job: string, issues: readonly SchemaIssue[]) {
    const described = issues.map((issue) => `${issue.path.length > 0 ? issue.path.map(String).join('.') : '(payload)'}: ${issue.message}`).join('; ');
    super('JOBS_PAYLOAD_INVALID', `The payload of job "${job}" does not match its schema, so it was not enqueued: ${described}.`);
    this.job = job;
    this.issues = issues;
  }
}

/**
 * A run that took longer than its job's `timeoutMs`: the attempt fails (and is retried); the
 * handler's `signal` was aborted with this error.
 *
 * @example
 * if (error instanceof JobTimeoutError) metrics.count('slow-job');
 */
export class JobTimeoutError extends TesseraError {
  constructor(job: string, timeoutMs: number) {
    super('JOBS_TIMEOUT', `Job "${job}" ran longer than its timeoutMs (${timeoutMs} ms).`);
  }
}
