import { createToken, type Token } from '../internal.js';
import type { JobDefinition } from './define-job.js';

/**
 * Where each job's provider registers itself with its resolved providers as the app builds:
 * how the runtime learns every job declared in any module without the core knowing jobs.
 *
 * @example
 * registry.register(welcomeMail, [mailer]);
 */
export interface JobRegistry {
  register(job: JobDefinition<never>, providers: readonly unknown[]): void;
}

/** The token every job's provider injects last (see defineJob). Provided by `JobsModule.forRoot`. */
export const JOB_REGISTRY: Token<JobRegistry> = createToken<JobRegistry>('JobRegistry (import JobsModule.forRoot())');
