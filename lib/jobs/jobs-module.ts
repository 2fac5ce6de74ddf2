import { defineModule, LOGGER, createToken, type Logger, type ModuleDefinition } from '../index.js';
import { integerAtLeast } from '../internal/primitives.js';
import { LIBRARY_TELEMETRY, type LibraryTelemetry } from '../internal/telemetry.js';
import type { JobEngine } from './job-engine.js';
import { JOBS } from './job-queue.js';
import { JOB_REGISTRY } from './define-job.js';
import { JobsRuntime, type JobsRole } from './jobs-runtime.js';
import { memoryJobEngine } from './memory-job-engine.js';

/**
 * Options of {@link JobsModule.forRoot}.
 *
 * @example
 * JobsModule.forRoot({ engine: pgBossJobEngine({ connectionString: process.env.DATABASE_URL! }), role: 'worker', shutdownGraceMs: 30_000 });
 */
export interface JobsModuleOptions {
  /** Where jobs live. Default `memoryJobEngine()` (this process only, lost on restart): development. The app closes it. */
  readonly engine?: JobEngine;
  /** `web` enqueues only; `worker` runs jobs and schedules; `both` (default) does all of it. */
  readonly role?: JobsRole;
  /** How long `app.close()` waits for running jobs before leaving them to the engine to hand out again, ms. Default 10 000. */
  readonly shutdownGraceMs?: number;
  /**
   * The longest an `enqueue` (or a schedule's fire) waits for the engine, ms; then it rejects with
   * `JOBS_ENGINE_TIMEOUT` (the job may still be enqueued when the engine answers). Default 5 000.
   */
  readonly enqueueTimeoutMs?: number;
}

const JOBS_RUNTIME = createToken<JobsRuntime>('JobsRuntime');

/**
 * The jobs module: import it once, in the root module; it is global, so every module's jobs
 * register with it and every provider can inject `JOBS`.
 *
 * @example
 * const AppModule = defineModule({ name: 'App', imports: [JobsModule.forRoot({ engine: pgBossJobEngine({ connectionString }) })], providers: [welcomeMail] });
 */
export const JobsModule = {
  forRoot(options: JobsModuleOptions = {}): ModuleDefinition {
    const role = options.role ?? 'both';
    if (role !== 'web' && role !== 'worker' && role !== 'both') throw new TypeError(`JobsModule: role is 'web', 'worker' or 'both', got "${String(role)}".`);
    const shutdownGraceMs = integerAtLeast(options.shutdownGraceMs ?? 10_000, 0, 'JobsModule shutdownGraceMs');
    const enqueueTimeoutMs = integerAtLeast(options.enqueueTimeoutMs ?? 5_000, 1, 'JobsModule enqueueTimeoutMs');
    return defineModule({
      name: 'JobsModule',
      global: true,
      providers: [
        {
          provide: JOBS_RUNTIME,
          inject: [LOGGER, LIBRARY_TELEMETRY],
          useFactory: (logger: Logger, telemetry: () => LibraryTelemetry | undefined) => new JobsRuntime({ engine: options.engine ?? memoryJobEngine(), role, shutdownGraceMs, enqueueTimeoutMs }, logger, telemetry),
        },
        { provide: JOBS, useExisting: JOBS_RUNTIME },
        { provide: JOB_REGISTRY, useExisting: JOBS_RUNTIME },
      ],
      exports: [JOBS, JOB_REGISTRY],
    });
  },
};
