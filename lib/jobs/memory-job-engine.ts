import { TesseraError } from '../index.js';
import type { EngineJob, EnqueueRequest, FailedJob, JobEngine, JobQueueSpec, JobRunner } from './job-engine.js';
import { backoffDelayMs } from './backoff.js';

interface StoredJob {
  readonly id: string;
  readonly name: string;
  readonly envelope: EngineJob['envelope'];
  attempts: number;
  readyAt: number;
  error?: string;
  failedAt?: Date;
}

interface Worker {
  readonly concurrency: number;
  readonly run: JobRunner;
  running: number;
}

/**
 * Options of {@link memoryJobEngine}.
 *
 * @example
 * memoryJobEngine({ failedLimit: 100 });
 */
export interface MemoryJobEngineOptions {
  /** How many failed jobs are kept for listing and retry; the oldest go first. Default 1 000. */
  readonly failedLimit?: number;
  /** How many schedule keys are remembered for deduplication. Default 10 000. */
  readonly keyLimit?: number;
}

/**
 * The development engine: jobs in this process's memory, with the same retries, backoff,
 * concurrency and failed state as the shared engines, and nothing shared or kept across a
 * restart. The default when `JobsModule.forRoot` is given no engine; give `pgBossJobEngine` or
 * `bullmqJobEngine` to run several instances or to survive a restart.
 *
 * @example
 * JobsModule.forRoot({ engine: memoryJobEngine() });
 */
export function memoryJobEngine(options: MemoryJobEngineOptions = {}): JobEngine {
  return new MemoryJobEngine(options.failedLimit ?? 1_000, options.keyLimit ?? 10_000);
}

class MemoryJobEngine implements JobEngine {
  readonly kind = 'memory';
  readonly #queues = new Map<string, JobQueueSpec>();
  readonly #ready = new Map<string, StoredJob[]>();
  readonly #workers = new Map<string, Worker>();
  readonly #failed: StoredJob[] = [];
  readonly #keys = new Set<string>();
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #running = new Set<Promise<void>>();
  readonly #aborts = new Set<AbortController>();
  #nextId = 1;
  #taking = true;

  constructor(
    readonly failedLimit: number,
    readonly keyLimit: number,
  ) {}

  async start(): Promise<void> {}

  async declare(queue: JobQueueSpec): Promise<void> {
    this.#queues.set(queue.name, queue);
    if (!this.#ready.has(queue.name)) this.#ready.set(queue.name, []);
  }

  async send(request: EnqueueRequest): Promise<string | undefined> {
    if (request.transaction !== undefined) {
      throw new TesseraError('JOBS_TRANSACTION_UNSUPPORTED', 'The in-memory job engine cannot enqueue inside a database transaction; use pgBossJobEngine for that.');
    }
    const queue = this.#queue(request.name);
    if (request.key !== undefined) {
      if (this.#keys.has(request.key)) return undefined;
      this.#keys.add(request.key);
      if (this.#keys.size > this.keyLimit) this.#keys.delete(this.#keys.values().next().value as string);
    }
    const job: StoredJob = { id: String(this.#nextId++), name: queue.name, envelope: request.envelope, attempts: 0, readyAt: request.runAt?.getTime() ?? 0 };
    this.#enqueue(job);
    return job.id;
  }

  async work(name: string, concurrency: number, run: JobRunner): Promise<void> {
    this.#queue(name);
    this.#taking = true;
    this.#workers.set(name, { concurrency, run, running: 0 });
    this.#pump(name);
  }

  async stopWorking(graceMs: number): Promise<void> {
    this.#taking = false;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    if (this.#running.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.allSettled([...this.#running]), bound]);
    clearTimeout(timer);
    for (const abort of this.#aborts) abort.abort(new Error('The job engine stopped'));
  }

  async failed(name: string, limit: number): Promise<FailedJob[]> {
    return this.#failed
      .filter((job) => job.name === name)
      .slice(0, limit)
      .map((job) => ({ id: job.id, name: job.name, payload: job.envelope.payload, ...(job.envelope.fireAt === undefined ? {} : { fireAt: job.envelope.fireAt }), attempts: job.attempts, error: job.error ?? '', failedAt: job.failedAt ?? new Date(0) }));
  }

  async retry(name: string, id: string): Promise<boolean> {
    const index = this.#failed.findIndex((job) => job.name === name && job.id === id);
    if (index < 0) return false;
    const [job] = this.#failed.splice(index, 1) as [StoredJob];
    job.attempts = 0;
    job.readyAt = 0;
    delete job.error;
    delete job.failedAt;
    this.#enqueue(job);
    return true;
  }

  async close(): Promise<void> {
    await this.stopWorking(0);
  }

  #queue(name: string): JobQueueSpec {
    const queue = this.#queues.get(name);
    if (queue === undefined) throw new TesseraError('JOBS_UNKNOWN', `No job named "${name}" was declared on this engine.`);
    return queue;
  }

  #enqueue(job: StoredJob): void {
    const wait = job.readyAt - Date.now();
    if (wait > 0) {
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        this.#enqueue({ ...job, readyAt: 0 });
      }, wait);
      this.#timers.add(timer);
      return;
    }
    (this.#ready.get(job.name) as StoredJob[]).push(job);
    this.#pump(job.name);
  }

  #pump(name: string): void {
    const worker = this.#workers.get(name);
    const ready = this.#ready.get(name);
    if (worker === undefined || ready === undefined) return;
    while (this.#taking && worker.running < worker.concurrency && ready.length > 0) {
      const job = ready.shift() as StoredJob;
      worker.running += 1;
      const running = this.#runOne(worker, job).finally(() => {
        worker.running -= 1;
        this.#running.delete(running);
        this.#pump(name);
      });
      this.#running.add(running);
    }
  }

  async #runOne(worker: Worker, job: StoredJob): Promise<void> {
    job.attempts += 1;
    const abort = new AbortController();
    this.#aborts.add(abort);
    try {
      await worker.run({ id: job.id, name: job.name, envelope: job.envelope, attempt: job.attempts, signal: abort.signal });
    } catch (error) {
      const queue = this.#queue(job.name);
      if (job.attempts <= queue.retries) {
        job.readyAt = Date.now() + backoffDelayMs(queue.backoff, job.attempts);
        if (this.#taking) this.#enqueue(job);
        return;
      }
      job.error = error instanceof Error ? error.message : String(error);
      job.failedAt = new Date();
      this.#failed.push(job);
      if (this.#failed.length > this.failedLimit) this.#failed.shift();
    } finally {
      this.#aborts.delete(abort);
    }
  }
}
