import type { PgBoss, Db } from 'pg-boss';
import { TesseraError } from '../index.js';
import type { EnqueueRequest, FailedJob, JobEngine, JobEnvelope, JobQueueSpec, JobRunner, JobTransaction } from './job-engine.js';
import { importOptionalModule } from '../internal/primitives.js';

/**
 * Options of {@link pgBossJobEngine}.
 *
 * @example
 * pgBossJobEngine({ connectionString: process.env.DATABASE_URL!, schema: 'jobs', heartbeatSeconds: 30 });
 */
export interface PgBossJobEngineOptions {
  readonly connectionString: string;
  /** The schema pg-boss installs its tables in (it creates and migrates it at start). Default `pgboss`. */
  readonly schema?: string;
  /** Most connections pg-boss opens. Default 10. */
  readonly maxConnections?: number;
  /**
   * A running job's worker refreshes it every half of this; a job not refreshed for this long
   * (its worker was killed) is failed and retried elsewhere, at the next supervision. At least
   * 10 (pg-boss's floor). Default 30.
   */
  readonly heartbeatSeconds?: number;
  /** How often pg-boss looks for jobs whose worker stopped (and does its maintenance), s. Default 60. */
  readonly superviseIntervalSeconds?: number;
  /** How often an idle worker polls when no NOTIFY wakes it, s (at least 0.5). Default 2. */
  readonly pollingIntervalSeconds?: number;
  /** How long completed jobs (and so schedule fire keys) are kept, s. Default 7 days. */
  readonly keepCompletedSeconds?: number;
}

/**
 * The PostgreSQL job engine, through pg-boss 12 (an optional peer dependency: install `pg-boss`
 * beside tessera-http; it needs Node 22.12 or later). Jobs are rows, claimed with
 * `SKIP LOCKED`; retries, backoff, heartbeats and the failed state are pg-boss's; an enqueue may
 * join the transaction of the write that causes it (`enqueue(job, payload, { transaction })`).
 * A schedule's fire is a job whose id is derived from its fire key, so the primary key keeps one.
 *
 * @example
 * JobsModule.forRoot({ engine: pgBossJobEngine({ connectionString: process.env.DATABASE_URL! }) });
 */
export function pgBossJobEngine(options: PgBossJobEngineOptions): JobEngine {
  return new PgBossJobEngine(options);
}

/** A UUID (version 8, RFC 9562) derived from a fire key: the same on every instance. */
async function keyId(name: string, key: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${name}\n${key}`));
  const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
  const variant = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function asDb(transaction: JobTransaction): Db {
  return { executeSql: async (text, values) => ({ rows: [...(await transaction.query(text, values)).rows] }) };
}

function errorText(output: unknown): string {
  const value = output as { message?: unknown; value?: { message?: unknown } } | null;
  if (typeof value?.message === 'string') return value.message;
  if (typeof value?.value?.message === 'string') return value.value.message;
  return output === null || output === undefined ? '' : JSON.stringify(output);
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,49}$/;

class PgBossJobEngine implements JobEngine {
  readonly kind = 'postgres';
  readonly #options: PgBossJobEngineOptions;
  readonly #schema: string;
  readonly #working = new Set<string>();
  #boss: PgBoss | undefined;

  constructor(options: PgBossJobEngineOptions) {
    this.#options = options;
    this.#schema = options.schema ?? 'pgboss';
    if (!SCHEMA_NAME.test(this.#schema)) throw new TesseraError('JOBS_CONFIG', `pgBossJobEngine: schema is a lower-case SQL name (letters, digits, _), got "${this.#schema}".`);
  }

  async start(): Promise<void> {
    if (this.#boss !== undefined) return;
    const { PgBoss: Boss } = await (importOptionalModule('pg-boss') as Promise<typeof import('pg-boss')>).catch((error: unknown) => {
      throw new TesseraError('JOBS_ENGINE_MISSING', 'pgBossJobEngine needs the pg-boss package (npm install pg-boss; Node 22.12 or later).', { cause: error });
    });
    const boss = new Boss({
      connectionString: this.#options.connectionString,
      schema: this.#schema,
      max: this.#options.maxConnections ?? 10,
      superviseIntervalSeconds: this.#options.superviseIntervalSeconds ?? 60,
      // Each queue's expired claims are looked for once per monitor interval: the same pace.
      monitorIntervalSeconds: this.#options.superviseIntervalSeconds ?? 60,
      useListenNotify: true,
      registerInstance: false,
      openTelemetry: { enabled: false },
    });
    // pg-boss reports connection trouble as events; unheard, an 'error' event would end the process.
    boss.on('error', () => {});
    await boss.start();
    this.#boss = boss;
  }

  async declare(queue: JobQueueSpec): Promise<void> {
    const boss = this.#started();
    const settings = {
      retryLimit: queue.retries,
      retryDelay: Math.ceil(queue.backoff.delayMs / 1000),
      retryBackoff: queue.backoff.exponential,
      ...(queue.backoff.exponential ? { retryDelayMax: Math.max(1, Math.ceil(queue.backoff.maxDelayMs / 1000)) } : {}),
      // The runner fails a run at timeoutMs; this bound is for a worker that stopped answering.
      expireInSeconds: Math.ceil(queue.timeoutMs / 1000) + 5,
      deleteAfterSeconds: this.#options.keepCompletedSeconds ?? 7 * 24 * 3600,
      heartbeatSeconds: this.#options.heartbeatSeconds ?? 30,
      notify: true,
    };
    if ((await boss.getQueue(queue.name)) === null) await boss.createQueue(queue.name, settings);
    else {
      const { heartbeatSeconds: _heartbeat, ...changeable } = settings;
      await boss.updateQueue(queue.name, changeable);
    }
  }

  async send(request: EnqueueRequest): Promise<string | undefined> {
    const boss = this.#started();
    const id = await boss.send(request.name, request.envelope as object, {
      ...(request.key === undefined ? {} : { id: await keyId(request.name, request.key) }),
      ...(request.runAt === undefined ? {} : { startAfter: request.runAt }),
      ...(request.transaction === undefined ? {} : { db: asDb(request.transaction) }),
    });
    return id ?? undefined;
  }

  async work(name: string, concurrency: number, run: JobRunner): Promise<void> {
    const boss = this.#started();
    const polling = this.#options.pollingIntervalSeconds ?? 2;
    // One fetch takes up to `concurrency` jobs and runs them at once, each settled on its own
    // (perJobResults); a full batch fetches again at once (burstWhenBatchFull). Fetching one job
    // per worker instead, each worker waits the polling interval after every job: a backlog then
    // drains at concurrency / pollingIntervalSeconds jobs a second (measured: 39 jobs/s).
    await boss.work<JobEnvelope, unknown, { batchSize: number; localConcurrency: 1; perJobResults: true; burstWhenBatchFull: true; pollingIntervalSeconds: number; notifyPollingIntervalSeconds: number }>(
      name,
      {
        batchSize: concurrency,
        localConcurrency: 1,
        perJobResults: true,
        burstWhenBatchFull: true,
        pollingIntervalSeconds: polling,
        // NOTIFY wakes a worker for a new job, not for a retry or a delayed job coming due: those
        // wait for the poll, so it keeps the same pace with NOTIFY on.
        notifyPollingIntervalSeconds: polling,
      },
      (jobs) =>
        Promise.all(
          jobs.map(async (job) => {
            try {
              await run({ id: job.id, name, envelope: job.data, attempt: job.retryCount + 1, signal: job.signal });
              return { id: job.id, status: 'completed' as const };
            } catch (error) {
              return { id: job.id, status: 'failed' as const, output: { message: error instanceof Error ? error.message : String(error) } };
            }
          }),
        ),
    );
    this.#working.add(name);
  }

  async stopWorking(graceMs: number): Promise<void> {
    const boss = this.#boss;
    if (boss === undefined || this.#working.size === 0) return;
    const names = [...this.#working];
    this.#working.clear();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.all(names.map((name) => boss.offWork(name, { wait: true }))), bound]);
    clearTimeout(timer);
  }

  async failed(name: string, limit: number): Promise<FailedJob[]> {
    const boss = this.#started();
    const { rows } = await boss.getDb().executeSql(
      `SELECT id, data, retry_count, output, completed_on FROM ${this.#schema}.job WHERE name = $1 AND state = 'failed' ORDER BY completed_on, id LIMIT $2`,
      [name, limit],
    );
    return (rows as { id: string; data: JobEnvelope; retry_count: number; output: unknown; completed_on: Date }[]).map((row) => ({
      id: row.id,
      name,
      payload: row.data.payload,
      ...(row.data.fireAt === undefined ? {} : { fireAt: row.data.fireAt }),
      attempts: row.retry_count + 1,
      error: errorText(row.output),
      failedAt: new Date(row.completed_on),
    }));
  }

  async retry(name: string, id: string): Promise<boolean> {
    const boss = this.#started();
    // pg-boss 12 answers { affected }, though its types declare an empty CommandResponse.
    const answer = (await boss.retry(name, id)) as { affected?: number };
    return (answer.affected ?? 0) > 0;
  }

  async close(): Promise<void> {
    const boss = this.#boss;
    if (boss === undefined) return;
    this.#boss = undefined;
    await this.stopWorking(0);
    // Jobs still running are left active; their heartbeat stops, and pg-boss hands them out again.
    await boss.stop({ graceful: false, close: true, timeout: 1_000 });
  }

  #started(): PgBoss {
    if (this.#boss === undefined) throw new TesseraError('JOBS_ENGINE_STOPPED', 'The PostgreSQL job engine is not started (or was closed).');
    return this.#boss;
  }
}
