// What a job costs on each engine (issue 49): enqueue latency (one enqueue at a time, from the
// call to the engine's answer) and throughput (jobs per second from the first enqueue of a batch
// to the last run's end, 10 at once per worker), through an app (createApp + JobsModule), the
// way an application enqueues. Engines: in memory always; PostgreSQL (pg-boss) with
// BENCH_DATABASE_URL or TEST_DATABASE_URL (Node 22.12 or later); Redis (BullMQ) with
// BENCH_REDIS_URL or TEST_REDIS_URL. Writes bench/results/jobs.md.
// Usage: npm run bench:jobs   (BENCH_JOBS_ENQUEUES, default 500; BENCH_JOBS_BATCH, default 2000)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp, defineModule } from '../lib/index.js';
import { bullmqJobEngine, defineJob, JOBS, JobsModule, memoryJobEngine, pgBossJobEngine, type JobEngine } from '../lib/jobs/index.js';
import { z } from 'zod';

const ENQUEUES = Number(process.env.BENCH_JOBS_ENQUEUES ?? 500);
const BATCH = Number(process.env.BENCH_JOBS_BATCH ?? 2000);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL;
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const pgBossRuns = major > 22 || (major === 22 && minor >= 12);
const silent = { error() {}, warn() {}, info() {}, debug() {}, child() { return silent; } };

interface Result {
  readonly engine: string;
  readonly p50: number;
  readonly p99: number;
  readonly perSecond: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;

async function measure(label: string, engine: () => JobEngine): Promise<Result> {
  let ran = 0;
  let enqueueOnly = true;
  const job = defineJob({ name: `bench-${Date.now().toString(36)}`, payload: z.object({ n: z.number() }), concurrency: 10, handler: () => void (enqueueOnly || (ran += 1)) });
  // The latency run enqueues on a web instance (nothing runs), so the workers do not compete with it.
  const web = await createApp(defineModule({ name: 'Web', imports: [JobsModule.forRoot({ engine: engine(), role: 'web' })], providers: [job] }), { logger: silent });
  const jobs = web.get(JOBS);
  for (let i = 0; i < 50; i += 1) await jobs.enqueue(job, { n: i });
  const times: number[] = [];
  for (let i = 0; i < ENQUEUES; i += 1) {
    const start = performance.now();
    await jobs.enqueue(job, { n: i });
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const worker = await createApp(defineModule({ name: 'Worker', imports: [JobsModule.forRoot({ engine: engine(), role: 'worker' })], providers: [job] }), { logger: silent });
  // Drain what the latency run left before the throughput run counts.
  enqueueOnly = true;
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  enqueueOnly = false;
  ran = 0;
  const start = performance.now();
  // 20 enqueuers at once (as many requests would), each enqueueing its share in turn.
  let next = 0;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (next < BATCH) await jobs.enqueue(job, { n: (next += 1) });
    }),
  );
  while (ran < BATCH) await new Promise((resolve) => setTimeout(resolve, 5));
  const seconds = (performance.now() - start) / 1000;
  await web.close();
  await worker.close();
  const result = { engine: label, p50: percentile(times, 50), p99: percentile(times, 99), perSecond: BATCH / seconds };
  console.log(`${label}: enqueue p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms; ${result.perSecond.toFixed(0)} jobs/s`);
  return result;
}

const results: Result[] = [];
// One in-memory engine for both instances: in memory, they are one process's queue.
const memory = memoryJobEngine();
results.push(await measure('memory', () => memory));
if (databaseUrl !== undefined && pgBossRuns) results.push(await measure('PostgreSQL (pg-boss 12)', () => pgBossJobEngine({ connectionString: databaseUrl, schema: 'bench_jobs', pollingIntervalSeconds: 0.5 })));
else console.log(`PostgreSQL skipped: ${databaseUrl === undefined ? 'set BENCH_DATABASE_URL' : `pg-boss needs Node >= 22.12 (this is ${process.versions.node})`}`);
if (redisUrl !== undefined) results.push(await measure('Redis (BullMQ 6)', () => bullmqJobEngine({ url: redisUrl, prefix: 'bench-jobs' })));
else console.log('Redis skipped: set BENCH_REDIS_URL');

const table = [
  `Jobs per engine (\`npm run bench:jobs\`, Node ${process.versions.node}, ${new Date().toISOString().slice(0, 10)}; ${ENQUEUES} sequential enqueues, then a batch of ${BATCH} enqueued by 20 callers at once and run 10 at a time by one worker instance; the servers on loopback).`,
  '',
  '| engine | enqueue p50 | enqueue p99 | jobs/s (batch, enqueue to last run) |',
  '| --- | ---: | ---: | ---: |',
  ...results.map((r) => `| ${r.engine} | ${r.p50.toFixed(2)} ms | ${r.p99.toFixed(2)} ms | ${r.perSecond.toFixed(0)} |`),
  '',
];
writeFileSync(join(import.meta.dirname, 'results', 'jobs.md'), table.join('\n'));
console.log(table.join('\n'));
process.exit(0);
