// The job engine in the fault matrix: an app on a PostgreSQL (pg-boss) or a Redis (BullMQ) this
// file starts itself, enqueueing a job every 100 ms and running a per-second schedule
// (`missed: 'run-once'`), while the engine is stopped or stalled for 4 s and then comes back.
// Measured: the longest enqueue during the fault (bounded by enqueueTimeoutMs), enqueues taken
// and refused, that every job the engine took runs exactly once after it returns, the fires
// during the fault (collapsed into one late run), and the time until jobs run again.
// Each prints its markdown row (run with --silent=false to see them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, defineModule, type App } from '../../lib/index.js';
import { bullmqJobEngine, defineJob, JOBS, JobsModule, pgBossJobEngine, type JobEngine } from '../../lib/jobs/index.js';
import { z } from 'zod';
import { startLocalCluster, whyNoClusterHang, whyNoLocalCluster, type LocalCluster } from '../postgres/support/local-cluster.js';
import { TEST_DATABASE_URL } from '../postgres/support/test-database.js';
import { startOwnRedis, type OwnRedis } from './support/own-redis.js';
import { createTestLogger } from '../support/test-logger.js';

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const pgBossRuns = major > 22 || (major === 22 && minor >= 12);
const noCluster = TEST_DATABASE_URL === undefined ? 'TEST_DATABASE_URL unset' : (whyNoLocalCluster() ?? (pgBossRuns ? undefined : `pg-boss needs Node >= 22.12 (this is ${process.versions.node})`));
const FAULT_MS = 4_000;
const ENQUEUE_TIMEOUT_MS = 1_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Fault {
  readonly name: string;
  begin(): Promise<void>;
  end(): Promise<void> | void;
}

interface Row {
  readonly fault: string;
  readonly longestEnqueueMs: number;
  readonly taken: number;
  readonly refused: number;
  readonly ranOnce: boolean;
  readonly firesDuring: number;
  readonly recoveryMs: number;
}

async function runScenario(engine: () => JobEngine, fault: Fault): Promise<Row> {
  const ran = new Map<number, number>();
  const fires: string[] = [];
  const work = defineJob({ name: 'fault-work', payload: z.object({ n: z.number() }), retries: 5, backoff: { delayMs: 500, exponential: false }, handler: ({ n }) => void ran.set(n, (ran.get(n) ?? 0) + 1) });
  const tick = defineJob({ name: 'fault-tick', schedule: { cron: '* * * * * *', missed: 'run-once' }, handler: (_p, { fireAt }) => void fires.push((fireAt as Date).toISOString()) });
  const { logger } = createTestLogger();
  const app: App = await createApp(defineModule({ name: 'App', imports: [JobsModule.forRoot({ engine: engine(), enqueueTimeoutMs: ENQUEUE_TIMEOUT_MS, shutdownGraceMs: 1_000 })], providers: [work, tick] }), { logger });
  const jobs = app.get(JOBS);
  const taken = new Set<number>();
  let refused = 0;
  let longestDuringFault = 0;
  let inFault = false;
  let n = 0;
  let loading = true;
  const load = (async () => {
    while (loading) {
      const mine = (n += 1);
      const started = Date.now();
      try {
        await jobs.enqueue(work, { n: mine });
        taken.add(mine);
      } catch {
        refused += 1;
      }
      if (inFault) longestDuringFault = Math.max(longestDuringFault, Date.now() - started);
      await sleep(100);
    }
  })();
  try {
    await sleep(2_500);
    const faultStart = new Date();
    inFault = true;
    await fault.begin();
    await sleep(FAULT_MS);
    await fault.end();
    const faultEnd = Date.now();
    inFault = false;
    // Recovered: a job enqueued now runs.
    let recoveryMs = Number.NaN;
    const probeFrom = n + 1;
    while (Date.now() - faultEnd < 30_000) {
      if ([...ran.keys()].some((key) => key >= probeFrom)) {
        recoveryMs = Date.now() - faultEnd;
        break;
      }
      await sleep(50);
    }
    await sleep(1_500);
    loading = false;
    await load;
    // Every job the engine said it took runs, once.
    const deadline = Date.now() + 30_000;
    while ([...taken].some((key) => !ran.has(key)) && Date.now() < deadline) await sleep(100);
    const ranOnce = [...taken].every((key) => ran.get(key) === 1) && [...ran.values()].every((count) => count === 1);
    const during = fires.filter((fire) => Date.parse(fire) >= faultStart.getTime() && Date.parse(fire) < faultEnd);
    expect(new Set(fires).size, 'each fire ran at most once').toBe(fires.length);
    expect(ranOnce, `every job the engine took ran exactly once (taken ${taken.size}, missing ${[...taken].filter((key) => !ran.has(key)).length})`).toBe(true);
    expect(longestDuringFault, 'no enqueue waited past enqueueTimeoutMs (plus scheduling slack)').toBeLessThan(ENQUEUE_TIMEOUT_MS + 500);
    expect(recoveryMs, 'jobs run again within 30 s of the engine’s return').toBeLessThan(30_000);
    return { fault: fault.name, longestEnqueueMs: longestDuringFault, taken: taken.size, refused, ranOnce, firesDuring: during.length, recoveryMs };
  } finally {
    loading = false;
    await load;
    await app.close();
  }
}

const rows: Row[] = [];
function printRows(): void {
  const lines = rows.map((row) => `| ${row.fault} | ${row.longestEnqueueMs} ms | ${row.taken} / ${row.refused} | ${row.ranOnce ? 'yes' : 'NO'} | ${row.firesDuring} | ${row.recoveryMs} ms |`);
  console.log(['| fault | longest enqueue during it | enqueues taken / refused (whole run) | every taken job ran exactly once | fires of the 4 s run (of ~4) | jobs run again after |', '| --- | --- | --- | --- | --- | --- |', ...lines].join('\n'));
}

describe.skipIf(noCluster !== undefined)(`job engine faults: PostgreSQL (pg-boss) (${noCluster ?? 'own cluster'})`, () => {
  let cluster: LocalCluster;
  beforeAll(async () => {
    cluster = await startLocalCluster();
  }, 60_000);
  afterAll(async () => {
    printRows();
    await cluster?.destroy();
  }, 60_000);
  const engine = () => pgBossJobEngine({ connectionString: cluster.url, schema: 'fault_jobs', pollingIntervalSeconds: 0.5, maxConnections: 4 });

  it('PostgreSQL stopped 4 s, then started: enqueues refused in bounded time, nothing taken is lost', async () => {
    rows.push(await runScenario(engine, { name: 'PostgreSQL stopped 4 s, then started', begin: () => cluster.stop(), end: () => cluster.start() }));
  }, 120_000);

  it.skipIf(whyNoClusterHang() !== undefined)('PostgreSQL stalled 4 s (SIGSTOP, SIGCONT): enqueues bounded, nothing taken is lost', async () => {
    rows.push(await runScenario(engine, { name: 'PostgreSQL stalled 4 s', begin: () => cluster.hang(), end: () => cluster.resume() }));
  }, 120_000);
});

describe.skipIf(TEST_REDIS_URL === undefined)('job engine faults: Redis (BullMQ) (TEST_REDIS_URL; own server)', () => {
  let redis: OwnRedis;
  beforeAll(async () => {
    redis = await startOwnRedis();
  }, 60_000);
  afterAll(async () => {
    printRows();
    await redis?.destroy();
  }, 60_000);
  const engine = () => bullmqJobEngine({ url: redis.url, prefix: 'fault-jobs' });

  it('Redis stopped 4 s, then started: enqueues bounded, nothing taken is lost', async () => {
    rows.push(await runScenario(engine, { name: 'Redis stopped 4 s, then started', begin: () => redis.stop(), end: () => redis.start() }));
  }, 120_000);

  it('Redis stalled 4 s (SIGSTOP, SIGCONT): enqueues bounded, nothing taken is lost', async () => {
    rows.push(await runScenario(engine, { name: 'Redis stalled 4 s', begin: () => redis.stall(), end: () => redis.resume() }));
  }, 120_000);
});
