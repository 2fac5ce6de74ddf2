import type { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { TesseraError } from '../index.js';
import { backoffDelayMs } from './backoff.js';
import { importOptionalModule } from '../internal/primitives.js';
import type { EnqueueRequest, FailedJob, JobEngine, JobEnvelope, JobQueueSpec, JobRunner } from './job-engine.js';

/**
 * Options of {@link bullmqJobEngine}.
 *
 * @example
 * bullmqJobEngine({ url: process.env.REDIS_URL!, prefix: 'myapp' });
 */
export interface BullmqJobEngineOptions {
  /** The Redis server, `redis://host:port`. */
  readonly url: string;
  /** The prefix of every key BullMQ writes. Default `tessera`. */
  readonly prefix?: string;
  /** How long a worker's claim on a running job lasts without renewal, ms (renewed at half); a killed worker's job is taken back after it. Default 30 000. */
  readonly lockDurationMs?: number;
  /** How often workers look for jobs whose claim lapsed, ms. Default 30 000. */
  readonly stalledIntervalMs?: number;
  /** How long completed jobs (and so schedule fire keys) are kept, s. Default 1 day. */
  readonly keepCompletedSeconds?: number;
}

/**
 * The Redis job engine, through BullMQ (an optional peer dependency: install `bullmq` beside
 * tessera-http; it uses ioredis). Retries, backoff, stalled-job recovery and the failed set are
 * BullMQ's. A schedule's fire is a job whose id is its fire key, so BullMQ keeps one.
 *
 * @example
 * JobsModule.forRoot({ engine: bullmqJobEngine({ url: process.env.REDIS_URL! }) });
 */
export function bullmqJobEngine(options: BullmqJobEngineOptions): JobEngine {
  return new BullmqJobEngine(options);
}

type BullMq = typeof import('bullmq');

/** BullMQ refuses a custom id with ':' in it (its key separator); fire keys carry ISO times. */
function jobIdOf(key: string): string {
  return key.replaceAll(':', '_');
}

class BullmqJobEngine implements JobEngine {
  readonly kind = 'redis';
  readonly #options: BullmqJobEngineOptions;
  readonly #specs = new Map<string, JobQueueSpec>();
  readonly #queues = new Map<string, Queue>();
  readonly #workers = new Map<string, Worker>();
  #bullmq: BullMq | undefined;
  #connection: Redis | undefined;

  constructor(options: BullmqJobEngineOptions) {
    this.#options = options;
  }

  async start(): Promise<void> {
    if (this.#bullmq !== undefined) return;
    const missing = (error: unknown) => {
      throw new TesseraError('JOBS_ENGINE_MISSING', 'bullmqJobEngine needs the bullmq and ioredis packages (npm install bullmq ioredis).', { cause: error });
    };
    const [bullmq, { Redis: RedisClient }] = await Promise.all([(importOptionalModule('bullmq') as Promise<BullMq>).catch(missing), (importOptionalModule('ioredis') as Promise<typeof import('ioredis')>).catch(missing)]);
    // BullMQ's workers block on this connection's duplicates; null retries per request is what it requires of them.
    const connection = new RedisClient(this.#options.url, { maxRetriesPerRequest: null });
    connection.on('error', () => {});
    this.#connection = connection;
    this.#bullmq = bullmq;
  }

  async declare(queue: JobQueueSpec): Promise<void> {
    const { Queue: QueueClass } = this.#started();
    this.#specs.set(queue.name, queue);
    if (this.#queues.has(queue.name)) return;
    const created = new QueueClass(queue.name, { connection: this.#connection as Redis, prefix: this.#prefix() });
    created.on('error', () => {});
    this.#queues.set(queue.name, created);
  }

  async send(request: EnqueueRequest): Promise<string | undefined> {
    if (request.transaction !== undefined) {
      throw new TesseraError('JOBS_TRANSACTION_UNSUPPORTED', 'The Redis job engine cannot enqueue inside a database transaction; use pgBossJobEngine for that.');
    }
    const queue = this.#queue(request.name);
    const spec = this.#specs.get(request.name) as JobQueueSpec;
    const jobId = request.key === undefined ? undefined : jobIdOf(request.key);
    if (jobId !== undefined && (await queue.getJob(jobId)) !== undefined) return undefined;
    const job = await queue.add(request.name, request.envelope, {
      ...(jobId === undefined ? {} : { jobId }),
      ...(request.runAt === undefined ? {} : { delay: Math.max(0, request.runAt.getTime() - Date.now()) }),
      attempts: spec.retries + 1,
      backoff: { type: 'tessera' },
      removeOnComplete: { age: this.#options.keepCompletedSeconds ?? 24 * 3600 },
      removeOnFail: false,
    });
    return job.id;
  }

  async work(name: string, concurrency: number, run: JobRunner): Promise<void> {
    const { Worker: WorkerClass } = this.#started();
    const spec = this.#specs.get(name);
    if (spec === undefined) throw new TesseraError('JOBS_UNKNOWN', `No job named "${name}" was declared on this engine.`);
    const worker = new WorkerClass<JobEnvelope>(
      name,
      async (job, _token, signal) => {
        await run({ id: job.id as string, name, envelope: job.data, attempt: job.attemptsMade + 1, signal: signal ?? new AbortController().signal });
      },
      {
        connection: this.#connection as Redis,
        prefix: this.#prefix(),
        concurrency,
        lockDuration: this.#options.lockDurationMs ?? 30_000,
        stalledInterval: this.#options.stalledIntervalMs ?? 30_000,
        settings: { backoffStrategy: (attemptsMade: number) => backoffDelayMs(spec.backoff, attemptsMade) },
      },
    );
    worker.on('error', () => {});
    this.#workers.set(name, worker);
  }

  async stopWorking(graceMs: number): Promise<void> {
    const workers = [...this.#workers.values()];
    this.#workers.clear();
    if (workers.length === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
    const closing = Promise.all(workers.map((worker) => worker.close()));
    const outcome = await Promise.race([closing, bound]);
    clearTimeout(timer);
    // Still running after the grace: the claims lapse once the workers are gone, and another instance takes the jobs.
    if (outcome === 'late') await Promise.all(workers.map((worker) => worker.close(true)));
  }

  async failed(name: string, limit: number): Promise<FailedJob[]> {
    const jobs = await this.#queue(name).getFailed(0, limit - 1);
    return jobs
      .map((job) => {
        const envelope = job.data as JobEnvelope;
        return {
          id: job.id as string,
          name,
          payload: envelope.payload,
          ...(envelope.fireAt === undefined ? {} : { fireAt: envelope.fireAt }),
          attempts: job.attemptsMade,
          error: job.failedReason ?? '',
          failedAt: new Date(job.finishedOn ?? 0),
        };
      })
      .sort((a, b) => a.failedAt.getTime() - b.failedAt.getTime());
  }

  async retry(name: string, id: string): Promise<boolean> {
    const job = await this.#queue(name).getJob(id);
    if (job === undefined || !(await job.isFailed())) return false;
    await job.retry('failed');
    return true;
  }

  async close(): Promise<void> {
    if (this.#bullmq === undefined) return;
    await this.stopWorking(0);
    await Promise.all([...this.#queues.values()].map((queue) => queue.close()));
    this.#queues.clear();
    this.#bullmq = undefined;
    await this.#connection?.quit().catch(() => this.#connection?.disconnect());
  }

  #prefix(): string {
    return this.#options.prefix ?? 'tessera';
  }

  #started(): BullMq {
    if (this.#bullmq === undefined) throw new TesseraError('JOBS_ENGINE_STOPPED', 'The Redis job engine is not started (or was closed).');
    return this.#bullmq;
  }

  #queue(name: string): Queue {
    const queue = this.#queues.get(name);
    if (queue === undefined) throw new TesseraError('JOBS_UNKNOWN', `No job named "${name}" was declared on this engine.`);
    return queue;
  }
}
