import { TesseraError, type BeforeModuleDestroy, type Logger, type OnModuleDestroy, type OnModuleInit } from '../index.js';
import { TIMED_OUT, within } from '../internal/engines.js';
import { compileSchemaParser } from '../internal/schema.js';
import type { LibraryTelemetry } from '../internal/telemetry.js';
import { jobOfClass, type JobClass, type JobDefinition, type JobRegistry } from './define-job.js';
import type { EnqueueRequest, FailedJob, JobEngine } from './job-engine.js';
import { JobPayloadError } from './job-errors.js';
import type { EnqueueOptions, JobQueue } from './job-queue.js';
import { runJob, type RegisteredJob } from './job-run.js';
import { fireKey, type JobSchedule } from './job-schedule.js';
import { ScheduleLoop } from './schedule-loop.js';

/**
 * What an instance does with jobs: `web` only enqueues, `worker` runs jobs and schedules,
 * `both` (the default) does all of it.
 *
 * @example
 * JobsModule.forRoot({ engine, role: process.env.ROLE === 'worker' ? 'worker' : 'web' });
 */
export type JobsRole = 'web' | 'worker' | 'both';

/** What the runtime is made with (JobsModule.forRoot's options, with the defaults applied). */
export interface JobsRuntimeOptions {
  readonly engine: JobEngine;
  readonly role: JobsRole;
  readonly shutdownGraceMs: number;
  readonly enqueueTimeoutMs: number;
}

/**
 * The app's jobs at run time: every job's provider registers here as the app builds; at
 * `onModuleInit` it starts the engine, declares each job's queue and, on a worker, takes jobs and
 * runs the schedules; at `app.close()` (`beforeModuleDestroy`, before any provider is destroyed)
 * it stops the schedules, stops taking jobs and waits for the running ones up to
 * `shutdownGraceMs`, then closes the engine.
 *
 * @example
 * const runtime = new JobsRuntime({ engine: memoryJobEngine(), role: 'both', shutdownGraceMs: 10_000 }, logger, () => undefined);
 */
export class JobsRuntime implements JobRegistry, JobQueue, OnModuleInit, BeforeModuleDestroy, OnModuleDestroy {
  readonly #jobs = new Map<string, RegisteredJob>();
  readonly #loops: ScheduleLoop[] = [];
  #ready: Promise<void> | undefined;
  #stopped = false;

  constructor(
    readonly options: JobsRuntimeOptions,
    readonly logger: Logger,
    readonly telemetry: () => LibraryTelemetry | undefined,
  ) {}

  get engine(): string {
    return this.options.engine.kind;
  }

  register(job: JobDefinition<never>, providers: readonly unknown[]): void {
    if (this.#jobs.has(job.name)) throw new TesseraError('JOBS_CONFIG', `Two jobs are named "${job.name}"; a job's name is its queue, and must be unique in the app.`);
    if (this.#ready !== undefined) throw new TesseraError('JOBS_CONFIG', `Job "${job.name}" was registered after the jobs started.`);
    this.#jobs.set(job.name, { definition: job, providers, parse: job.payload === undefined ? undefined : compileSchemaParser(job.payload) });
  }

  async onModuleInit(): Promise<void> {
    await this.#start();
    if (this.options.role === 'web') return;
    const deps = { logger: this.logger, telemetry: this.telemetry, engine: this.engine };
    for (const job of this.#jobs.values()) {
      await this.options.engine.work(job.definition.name, job.definition.concurrency, (run) => runJob(job, run, deps));
    }
    for (const job of this.#jobs.values()) {
      const schedule = job.definition.schedule;
      if (schedule === undefined) continue;
      const loop = new ScheduleLoop(job.definition.name, schedule, (fireAt) => this.#sendFire(job, fireAt), this.logger);
      this.#loops.push(loop);
      loop.start();
    }
  }

  async beforeModuleDestroy(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    for (const loop of this.#loops) loop.stop();
    if (this.#ready !== undefined) await this.options.engine.stopWorking(this.options.shutdownGraceMs);
  }

  async onModuleDestroy(): Promise<void> {
    await this.beforeModuleDestroy();
    if (this.#ready !== undefined) await this.options.engine.close();
  }

  async enqueue<P>(job: JobDefinition<P> | JobClass<P>, payload: NoInfer<P>, options: EnqueueOptions = {}): Promise<string | undefined> {
    const registered = this.#registered(nameOf(job));
    const checked = await this.#check(registered, payload);
    await this.#start();
    return this.#bounded(registered.definition.name, {
      name: registered.definition.name,
      envelope: { payload: checked },
      ...(options.key === undefined ? {} : { key: options.key }),
      ...(options.delayMs === undefined ? {} : { runAt: new Date(Date.now() + options.delayMs) }),
      ...(options.transaction === undefined ? {} : { transaction: options.transaction }),
    });
  }

  async failed(job: JobDefinition<unknown> | JobClass | string, options: { readonly limit?: number } = {}): Promise<FailedJob[]> {
    const name = this.#registered(nameOf(job)).definition.name;
    await this.#start();
    return this.options.engine.failed(name, options.limit ?? 100);
  }

  async retry(job: JobDefinition<unknown> | JobClass | string, id: string): Promise<boolean> {
    const name = this.#registered(nameOf(job)).definition.name;
    await this.#start();
    return this.options.engine.retry(name, id);
  }

  /** The jobs with a schedule: what a platform's scheduler is given (see platformSchedules). */
  scheduledJobs(): { readonly name: string; readonly schedule: JobSchedule }[] {
    return [...this.#jobs.values()].flatMap(({ definition }) => (definition.schedule === undefined ? [] : [{ name: definition.name, schedule: definition.schedule }]));
  }

  /**
   * Runs one fire of a scheduled job here and now, without the engine: for a platform whose
   * scheduler fires each trigger once (workerd's `scheduled()`, `Deno.cron`). Rejects when it
   * failed, for the platform to record (and, on Deno, retry).
   */
  async runScheduled(name: string, fireAt: Date): Promise<void> {
    const job = this.#registered(name);
    const payload = await this.#check(job, job.definition.schedule?.payload);
    await runJob(job, { id: fireKey(name, fireAt), name, envelope: { payload, fireAt: fireAt.toISOString() }, attempt: 1, signal: new AbortController().signal }, { logger: this.logger, telemetry: this.telemetry, engine: 'platform' });
  }

  #start(): Promise<void> {
    this.#ready ??= (async () => {
      for (const job of this.#jobs.values()) {
        const schedule = job.definition.schedule;
        if (schedule !== undefined) await this.#check(job, schedule.payload);
      }
      await this.options.engine.start();
      for (const { definition } of this.#jobs.values()) {
        await this.options.engine.declare({ name: definition.name, retries: definition.retries, backoff: definition.backoff, timeoutMs: definition.timeoutMs });
      }
    })();
    return this.#ready;
  }

  async #sendFire(job: RegisteredJob, fireAt: Date): Promise<void> {
    const payload = await this.#check(job, job.definition.schedule?.payload);
    await this.#bounded(job.definition.name, { name: job.definition.name, envelope: { payload, fireAt: fireAt.toISOString() }, key: fireKey(job.definition.name, fireAt) });
  }

  /** The engine's send, bounded: a stalled engine never holds the caller longer than enqueueTimeoutMs. */
  async #bounded(job: string, request: EnqueueRequest): Promise<string | undefined> {
    const sending = this.options.engine.send(request);
    const answer = await within(sending, this.options.enqueueTimeoutMs);
    if (answer !== TIMED_OUT) return answer;
    sending.catch(() => undefined);
    throw new TesseraError('JOBS_ENGINE_TIMEOUT', `The job engine (${this.engine}) did not take job "${job}" within ${this.options.enqueueTimeoutMs} ms; it may still be enqueued once the engine answers.`);
  }

  async #check(job: RegisteredJob, payload: unknown): Promise<unknown> {
    if (job.parse === undefined) return payload;
    const parsed = await job.parse(payload);
    if (!parsed.success) throw new JobPayloadError(job.definition.name, parsed.error.issues);
    // The payload as given is what travels: the handler's parse makes the output again.
    return payload;
  }

  #registered(name: string): RegisteredJob {
    const job = this.#jobs.get(name);
    if (job === undefined) {
      throw new TesseraError('JOBS_UNKNOWN', `No job named "${name}" is part of the app: list it in a module's providers (its definition from defineJob is the provider).`);
    }
    return job;
  }
}

function nameOf(job: JobDefinition<unknown> | JobClass<never> | string): string {
  if (typeof job === 'string') return job;
  if (typeof job === 'function') {
    const declared = jobOfClass(job);
    if (declared === undefined) throw new TesseraError('JOBS_UNKNOWN', `${job.name} is not a job: declare it with @Job(...) or defineJobClass(...).`);
    return declared.name;
  }
  return job.name;
}
