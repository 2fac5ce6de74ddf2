// The job contract every engine must keep, driven through apps (createApp + JobsModule), so the
// same job code is checked on the in-memory engine, PostgreSQL (pg-boss) and Redis (BullMQ).
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, createToken, defineModule, type App } from '../../lib/index.js';
import { defineJob, JOBS, JobPayloadError, JobsModule, type JobEngine, type JobsRole } from '../../lib/jobs/index.js';
import { createTestLogger, type RecordedLog } from '../support/test-logger.js';

/** Engines that share one store: each call gives another instance's engine (memory: the same one). */
export interface EngineFactory {
  /** A new engine on the shared store (another instance). */
  instance(): JobEngine;
  /** How long a job may take to be picked up on this engine, ms (polling). */
  readonly pickupMs: number;
}

let sequence = 0;
/** A job name no other test (or earlier run on the same server) uses. */
export function uniqueName(label: string): string {
  sequence += 1;
  return `${label}-${Date.now().toString(36)}-${sequence}`;
}

/** Waits until `check` holds, polling, or fails with `what`. */
export async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const GREETING = createToken<string>('Greeting');

export function describeJobEngineContract(label: string, factory: () => EngineFactory): void {
  describe(`job engine contract: ${label}`, () => {
    const apps: App[] = [];
    afterEach(async () => {
      await Promise.all(apps.splice(0).map((app) => app.close()));
    });

    async function boot(jobs: readonly unknown[], options: { role?: JobsRole; engine?: JobEngine; shutdownGraceMs?: number } = {}): Promise<{ app: App; log: RecordedLog }> {
      const { logger, log } = createTestLogger();
      const module = defineModule({
        name: 'App',
        imports: [JobsModule.forRoot({ engine: options.engine ?? factory().instance(), role: options.role ?? 'both', shutdownGraceMs: options.shutdownGraceMs ?? 5_000 })],
        providers: [{ provide: GREETING, useValue: 'hello' }, ...(jobs as never[])],
      });
      const app = await createApp(module, { logger });
      apps.push(app);
      return { app, log };
    }

    it('runs an enqueued job with its parsed payload, its injected providers and attempt 1', async () => {
      const seen: unknown[] = [];
      const job = defineJob({
        name: uniqueName('greet'),
        payload: z.object({ to: z.string().min(1), times: z.coerce.number() }),
        inject: [GREETING],
        handler: (payload, { providers: [greeting], attempt, fireAt }) => void seen.push({ payload, greeting, attempt, fireAt }),
      });
      const { app } = await boot([job]);
      const id = await app.get(JOBS).enqueue(job, { to: 'ada', times: '2' });
      expect(typeof id, 'enqueue answers the job id').toBe('string');
      await until(() => seen.length === 1, 'the job to run');
      expect(seen[0], 'the handler got the schema output, its provider, attempt 1 and no fireAt').toEqual({ payload: { to: 'ada', times: 2 }, greeting: 'hello', attempt: 1, fireAt: undefined });
    });

    it('refuses at enqueue a payload that fails the schema, naming the field, and enqueues nothing', async () => {
      let runs = 0;
      const job = defineJob({ name: uniqueName('strict'), payload: z.object({ to: z.email() }), handler: () => void (runs += 1) });
      const { app } = await boot([job]);
      const refused = app.get(JOBS).enqueue(job, { to: 'not an address' });
      await expect(refused, 'the bad payload is refused with a JobPayloadError').rejects.toBeInstanceOf(JobPayloadError);
      await expect(app.get(JOBS).enqueue(job, { to: 'not an address' }), 'the message names the field').rejects.toThrow(/job "strict-[^"]+".*to:/);
      await new Promise((resolve) => setTimeout(resolve, factory().pickupMs));
      expect(runs, 'nothing ran').toBe(0);
    });

    it('writes one JSON log line per run with job, jobId, attempt, outcome and durationMs', async () => {
      const job = defineJob({ name: uniqueName('logged'), handler: () => undefined });
      const { app, log } = await boot([job]);
      const id = await app.get(JOBS).enqueue(job, undefined);
      await until(() => log.infos.some((line) => line.fields.jobId === id), 'the run to be logged');
      const lines = log.infos.filter((line) => line.fields.jobId === id);
      expect(lines, 'exactly one line for the run').toHaveLength(1);
      expect(lines[0]?.fields, 'the line says what ran and how it ended').toMatchObject({ job: job.name, jobId: id, attempt: 1, outcome: 'completed' });
      expect(typeof lines[0]?.fields.durationMs, 'the line has the duration').toBe('number');
    });

    it('retries a failing job with backoff, then dead-letters it: failed() lists it, retry() runs it again', async () => {
      const attempts: number[] = [];
      let succeed = false;
      const job = defineJob({
        name: uniqueName('flaky'),
        payload: z.object({ n: z.number() }),
        retries: 1,
        backoff: { delayMs: 200, exponential: false },
        handler: (_payload, { attempt }) => {
          attempts.push(attempt);
          if (!succeed) throw new Error(`boom ${attempt}`);
        },
      });
      const { app, log } = await boot([job]);
      const jobs = app.get(JOBS);
      const id = (await jobs.enqueue(job, { n: 7 })) as string;
      await until(() => log.errors.some((line) => line.fields.jobId === id), 'the last attempt to fail', 15_000);
      expect(attempts, 'one run and one retry').toEqual([1, 2]);
      expect(log.warnings.find((line) => line.fields.jobId === id)?.fields.outcome, 'the first failure is logged as retrying').toBe('retrying');
      expect(log.errors.find((line) => line.fields.jobId === id)?.fields.outcome, 'the last failure is logged as failed').toBe('failed');
      let dead: Awaited<ReturnType<typeof jobs.failed>> = [];
      await until(() => dead.length > 0 || (void jobs.failed(job).then((list) => (dead = list)), false), 'the dead letter to be listed');
      expect(dead[0], 'the dead letter has the payload, attempts and error').toMatchObject({ id, name: job.name, payload: { n: 7 }, attempts: 2, error: 'boom 2' });
      succeed = true;
      expect(await jobs.retry(job, id), 'retry finds the failed job').toBe(true);
      await until(() => attempts.length === 3, 'the retried job to run', 15_000);
      await until(() => log.infos.some((line) => line.fields.jobId === id && line.fields.outcome === 'completed'), 'the retried run to complete');
      expect(await jobs.failed(job), 'no dead letter is left').toEqual([]);
    });

    it('fails a run that outlives timeoutMs, aborting its signal', async () => {
      let aborted: unknown;
      const job = defineJob({
        name: uniqueName('slow'),
        retries: 0,
        timeoutMs: 200,
        handler: (_payload, { signal }) =>
          new Promise<void>((resolve) => {
            signal.addEventListener('abort', () => {
              aborted = signal.reason;
              resolve();
            });
          }),
      });
      const { app, log } = await boot([job]);
      const id = await app.get(JOBS).enqueue(job, undefined);
      await until(() => log.errors.some((line) => line.fields.jobId === id), 'the timed-out run to fail');
      expect((aborted as { code?: string }).code, 'the signal was aborted with the timeout').toBe('JOBS_TIMEOUT');
      expect((log.errors.find((line) => line.fields.jobId === id)?.error as { code?: string }).code, 'the run failed with the timeout').toBe('JOBS_TIMEOUT');
    });

    it('enqueues a key once', async () => {
      let runs = 0;
      const job = defineJob({ name: uniqueName('keyed'), handler: () => void (runs += 1) });
      const { app } = await boot([job]);
      const jobs = app.get(JOBS);
      const first = await jobs.enqueue(job, undefined, { key: 'only-once' });
      const second = await jobs.enqueue(job, undefined, { key: 'only-once' });
      expect(typeof first, 'the first enqueue answers an id').toBe('string');
      expect(second, 'the second answers undefined').toBeUndefined();
      await until(() => runs === 1, 'the job to run');
      await new Promise((resolve) => setTimeout(resolve, factory().pickupMs));
      expect(runs, 'it ran once').toBe(1);
    });

    it('runs each fire of a per-second schedule once across three instances', async () => {
      const fires: string[] = [];
      const job = defineJob({ name: uniqueName('tick'), schedule: { cron: '* * * * * *' }, handler: (_payload, { fireAt }) => void fires.push((fireAt as Date).toISOString()) });
      const engines = factory();
      for (let i = 0; i < 3; i += 1) await boot([job], { engine: engines.instance() });
      await until(() => fires.length >= 4, 'four fires', 15_000);
      await Promise.all(apps.splice(0).map((app) => app.close()));
      const sorted = [...fires].sort();
      expect(new Set(fires).size, `each fire ran once (fires: ${sorted.join(', ')})`).toBe(fires.length);
      const seconds = sorted.map((fire) => Date.parse(fire) / 1000);
      const first = seconds[0] as number;
      const expected = seconds.map((_, index) => first + index);
      expect(seconds, 'no second was skipped between the first and the last fire').toEqual(expected);
    });

    it('a web instance enqueues but runs nothing; a worker instance runs it', async () => {
      const ranOn: string[] = [];
      const INSTANCE = createToken<string>('Instance');
      const engines = factory();
      const make = (instance: string, role: JobsRole) => {
        const job = defineJob({ name: 'shared-role-job', inject: [INSTANCE], handler: (_payload, { providers: [where] }) => void ranOn.push(where) });
        return { job, provider: { provide: INSTANCE, useValue: instance }, role };
      };
      const name = uniqueName('roles');
      const web = make('web', 'web');
      const worker = make('worker', 'worker');
      const rename = (job: typeof web.job) => defineJob({ name, inject: [INSTANCE], handler: job.handler as never });
      const webJob = rename(web.job);
      const { app: webApp } = await boot([webJob, web.provider], { engine: engines.instance(), role: 'web' });
      await boot([rename(worker.job), worker.provider], { engine: engines.instance(), role: 'worker' });
      await webApp.get(JOBS).enqueue(webJob, undefined);
      await webApp.get(JOBS).enqueue(webJob, undefined);
      await until(() => ranOn.length === 2, 'both jobs to run');
      expect(ranOn, 'the worker ran them, the web instance none').toEqual(['worker', 'worker']);
    });

    it('app.close() stops taking jobs and waits for the running one', async () => {
      const events: string[] = [];
      const job = defineJob({
        name: uniqueName('draining'),
        handler: async () => {
          events.push('started');
          await new Promise((resolve) => setTimeout(resolve, 400));
          events.push('finished');
        },
      });
      const { app } = await boot([job]);
      await app.get(JOBS).enqueue(job, undefined);
      await until(() => events.includes('started'), 'the job to start');
      await app.close();
      events.push('closed');
      apps.splice(apps.indexOf(app), 1);
      expect(events, 'close resolved after the running job finished').toEqual(['started', 'finished', 'closed']);
    });
  });
}
