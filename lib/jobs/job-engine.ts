/**
 * How a queue retries and bounds its jobs, as the engine is told once when the app starts: the
 * engine (pg-boss, BullMQ, the in-memory one) does the retrying, so a retry survives the process
 * that failed.
 *
 * @example
 * const queue: JobQueueSpec = { name: 'send-mail', retries: 5, backoff: { delayMs: 1000, exponential: true, maxDelayMs: 60_000 }, timeoutMs: 30_000 };
 */
export interface JobQueueSpec {
  readonly name: string;
  /** Attempts after the first; 0 runs a job once. */
  readonly retries: number;
  readonly backoff: JobBackoff;
  /** The longest one run may take; a run still going then fails (its `signal` aborts) and is retried. */
  readonly timeoutMs: number;
}

/**
 * The wait before a retry: `delayMs`, doubled after each attempt when `exponential`, never more
 * than `maxDelayMs`.
 *
 * @example
 * const backoff: JobBackoff = { delayMs: 1000, exponential: true, maxDelayMs: 60_000 };
 */
export interface JobBackoff {
  readonly delayMs: number;
  readonly exponential: boolean;
  readonly maxDelayMs: number;
}

/**
 * What the engine stores for one job: the payload, and the fire time of a scheduled run.
 *
 * @example
 * const envelope: JobEnvelope = { payload: { to: 'ada@example.com' }, fireAt: '2026-11-28T03:00:00.000Z' };
 */
export interface JobEnvelope {
  readonly payload: unknown;
  readonly fireAt?: string;
}

/**
 * One run of a job as an engine hands it to a worker.
 *
 * @example
 * const run: EngineJob = { id: '1', name: 'send-mail', envelope: { payload: {} }, attempt: 1, signal: new AbortController().signal };
 */
export interface EngineJob {
  readonly id: string;
  readonly name: string;
  readonly envelope: JobEnvelope;
  /** 1 for the first run, 2 for the first retry, ... */
  readonly attempt: number;
  /** Aborted when the engine takes the job back (its claim expired, the worker stops). */
  readonly signal: AbortSignal;
}

/**
 * A database transaction to enqueue in, so the job exists exactly when the write that caused it
 * commits: anything with pg's `query(text, values)` (a `pg` `PoolClient` inside `BEGIN`, the
 * transaction client of `tessera-http/postgres`). Only the PostgreSQL engine takes one.
 *
 * @example
 * const client = await pool.connect(); await client.query('BEGIN');
 * await jobs.enqueue(welcomeMail, { accountId }, { transaction: client });
 */
export interface JobTransaction {
  query(text: string, values?: unknown[]): Promise<{ readonly rows: unknown[] }>;
}

/**
 * One job sent to an engine.
 *
 * @example
 * const request: EnqueueRequest = { name: 'purge', envelope: { payload: null, fireAt: '...' }, key: 'purge@2026-11-28T03:00:00.000Z' };
 */
export interface EnqueueRequest {
  readonly name: string;
  readonly envelope: JobEnvelope;
  /** At most one job with this key is ever enqueued on the engine (while the engine keeps it): a schedule's fire. */
  readonly key?: string;
  /** Not run before this time. */
  readonly runAt?: Date;
  readonly transaction?: JobTransaction;
}

/**
 * A job that used up its attempts: the dead-letter state an operator lists and retries.
 *
 * @example
 * const dead: FailedJob = { id: '1', name: 'send-mail', payload: {}, attempts: 6, error: 'connect ECONNREFUSED', failedAt: new Date() };
 */
export interface FailedJob {
  readonly id: string;
  readonly name: string;
  readonly payload: unknown;
  readonly fireAt?: string;
  readonly attempts: number;
  /** The last error's message, as the handler threw it. */
  readonly error: string;
  readonly failedAt: Date;
}

/**
 * What a worker does with one run: resolves when the job completed, rejects when this attempt failed.
 *
 * @example
 * const run: JobRunner = async (job) => { await handle(job.envelope.payload); };
 */
export type JobRunner = (job: EngineJob) => Promise<void>;

/**
 * The one contract every job engine implements, so the same job code runs on each: in memory
 * (`memoryJobEngine`), PostgreSQL (`pgBossJobEngine`, pg-boss) and Redis (`bullmqJobEngine`,
 * BullMQ). Tessera adds no queue of its own on top: retries, backoff, claims that expire when a
 * worker dies, and the failed state are the engine's.
 *
 * @example
 * const engine: JobEngine = memoryJobEngine();
 * await engine.start(); await engine.declare(spec); await engine.send({ name: spec.name, envelope: { payload: {} } });
 */
export interface JobEngine {
  /** `memory`, `postgres` or `redis`: the log lines and metrics name it. */
  readonly kind: string;
  /** Connects (and installs what the engine needs). */
  start(): Promise<void>;
  /** Makes the queue exist with its retry policy; called once per job at start. */
  declare(queue: JobQueueSpec): Promise<void>;
  /** Enqueues; the job's id, or undefined when a job with the same `key` was already enqueued. */
  send(request: EnqueueRequest): Promise<string | undefined>;
  /** Starts taking jobs of `name`, at most `concurrency` at once in this process. */
  work(name: string, concurrency: number, run: JobRunner): Promise<void>;
  /** Stops taking jobs and waits for the running ones, at most `graceMs`; what is still running then is left for the engine to hand out again. */
  stopWorking(graceMs: number): Promise<void>;
  /** Jobs of `name` that used up their attempts, oldest first, at most `limit`. */
  failed(name: string, limit: number): Promise<FailedJob[]>;
  /** Puts a failed job back in its queue, with its attempts reset; false when there is no such failed job. */
  retry(name: string, id: string): Promise<boolean>;
  /** Disconnects; `stopWorking` first. */
  close(): Promise<void>;
}
