import type { Logger } from '../index.js';
import type { SchemaParser } from '../internal/schema.js';
import type { LibraryTelemetry, TelemetryHistogram } from '../internal/telemetry.js';
import type { JobDefinition } from './define-job.js';
import type { EngineJob } from './job-engine.js';
import { JobPayloadError, JobTimeoutError } from './job-errors.js';

/** The instrumentation scope of the jobs' spans and metrics. */
export const JOBS_SCOPE = 'tessera-http/jobs';

/** One job run's duration, by job and outcome. */
export const JOB_DURATION: TelemetryHistogram = {
  scope: JOBS_SCOPE,
  name: 'tessera.job.duration',
  description: 'How long each job run took, by job and outcome.',
  unit: 's',
};

/** A registered job: its definition, its resolved providers, its payload parser. */
export interface RegisteredJob {
  readonly definition: JobDefinition<never>;
  readonly providers: readonly unknown[];
  readonly parse: SchemaParser | undefined;
}

/** What a run needs from the app. */
export interface RunDeps {
  readonly logger: Logger;
  readonly telemetry: () => LibraryTelemetry | undefined;
  readonly engine: string;
}

/** How one run ended: `completed`, `retrying` (this attempt failed, another will run) or `failed` (the last attempt failed: a dead letter). */
export type RunOutcome = 'completed' | 'retrying' | 'failed';

/**
 * Runs one engine job through its handler: the payload checked again (it crossed a process),
 * the run bounded by `timeoutMs`, one JSON log line at the end (job, jobId, fireAt, attempt,
 * outcome, durationMs), a span and a duration metric on the app's telemetry. Resolves when it
 * completed; rejects, for the engine to retry or dead-letter, when it failed.
 *
 * @example
 * await engine.work(job.definition.name, 1, (run) => runJob(job, run, deps));
 */
export async function runJob(job: RegisteredJob, run: EngineJob, deps: RunDeps): Promise<void> {
  const { definition } = job;
  const started = performance.now();
  const fireAt = run.envelope.fireAt === undefined ? undefined : new Date(run.envelope.fireAt);
  const telemetry = deps.telemetry();
  const attributes = { 'tessera.job.name': definition.name, 'tessera.job.engine': deps.engine };
  const work = () => attempt(job, run, fireAt, deps.logger);
  let outcome: RunOutcome = 'completed';
  let failure: unknown;
  try {
    await (telemetry === undefined ? work() : telemetry.inSpan(JOBS_SCOPE, `job ${definition.name}`, work, attributes));
  } catch (error) {
    failure = error;
    outcome = run.attempt > definition.retries ? 'failed' : 'retrying';
  }
  const durationMs = Math.round((performance.now() - started) * 100) / 100;
  telemetry?.record?.(JOB_DURATION, durationMs / 1000, { ...attributes, 'tessera.job.outcome': outcome });
  const fields = {
    job: definition.name,
    jobId: run.id,
    ...(run.envelope.fireAt === undefined ? {} : { fireAt: run.envelope.fireAt }),
    attempt: run.attempt,
    outcome,
    durationMs,
    engine: deps.engine,
    ...(failure === undefined ? {} : { err: failure }),
  };
  if (outcome === 'completed') deps.logger.info(fields, 'job completed');
  else if (outcome === 'retrying') deps.logger.warn(fields, 'job attempt failed, retrying');
  else deps.logger.error(fields, 'job failed: no attempts left, dead-lettered');
  if (failure !== undefined) throw failure;
}

async function attempt(job: RegisteredJob, run: EngineJob, fireAt: Date | undefined, logger: Logger): Promise<void> {
  const { definition } = job;
  let payload = run.envelope.payload;
  if (job.parse !== undefined) {
    const parsed = await job.parse(payload);
    if (!parsed.success) throw new JobPayloadError(definition.name, parsed.error.issues);
    payload = parsed.data;
  }
  const abort = new AbortController();
  const onEngineAbort = () => abort.abort(run.signal.reason);
  if (run.signal.aborted) onEngineAbort();
  else run.signal.addEventListener('abort', onEngineAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const error = new JobTimeoutError(definition.name, definition.timeoutMs);
      abort.abort(error);
      reject(error);
    }, definition.timeoutMs);
  });
  try {
    const context = { providers: job.providers, jobId: run.id, attempt: run.attempt, fireAt, signal: abort.signal, log: logger.child({ job: definition.name, jobId: run.id }) };
    await Promise.race([Promise.resolve().then(() => definition.handler(payload, context)), timedOut]);
  } finally {
    clearTimeout(timer);
    run.signal.removeEventListener('abort', onEngineAbort);
  }
}
