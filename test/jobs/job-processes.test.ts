// Jobs across processes on a real PostgreSQL (pg-boss): three worker processes each run a
// per-second schedule and every fire runs once; a worker killed with SIGKILL while it holds a job
// loses nothing: the job runs again, to completion, in another process.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp, defineModule } from '../../lib/index.js';
import { defineJob, JOBS, JobsModule, pgBossJobEngine } from '../../lib/jobs/index.js';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../postgres/support/test-database.js';
import { until } from './job-engine-contract.js';

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const pgBossRuns = major > 22 || (major === 22 && minor >= 12);
const root = join(import.meta.dirname, '..', '..');

interface Worker {
  readonly child: ChildProcess;
  readonly lines: string[];
}

describe.skipIf(TEST_DATABASE_URL === undefined || !pgBossRuns)(`job worker processes on PostgreSQL (TEST_DATABASE_URL, Node >= 22.12; this is ${process.versions.node})`, () => {
  let database: TestDatabase;
  const workers: Worker[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
  }, 30_000);
  afterEach(() => {
    for (const worker of workers.splice(0)) worker.child.kill('SIGKILL');
  });
  afterAll(async () => {
    await database?.drop();
  });

  function start(schema: string, mode: 'tick' | 'hold'): Worker {
    const child = spawn(process.execPath, ['--import', './scripts/register-swc.mjs', 'test/jobs/support/job-process.ts', database.url, schema, mode], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    const worker: Worker = { child, lines: [] };
    let rest = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      const text = rest + chunk.toString('utf8');
      const lines = text.split('\n');
      rest = lines.pop() ?? '';
      worker.lines.push(...lines);
    });
    workers.push(worker);
    return worker;
  }

  it('runs each fire of a per-second schedule once across three processes', async () => {
    const three = [start('ticks', 'tick'), start('ticks', 'tick'), start('ticks', 'tick')];
    await until(() => three.every((worker) => worker.lines.includes('ready')), 'three workers ready', 30_000);
    const fires = () => three.flatMap((worker) => worker.lines.filter((line) => line.startsWith('fire ')).map((line) => line.slice(5)));
    await until(() => fires().length >= 6, 'six fires', 30_000);
    for (const worker of three) worker.child.kill('SIGTERM');
    const all = fires();
    const sorted = [...new Set(all)].sort();
    expect(all.length, `each fire ran once across the processes (fires: ${[...all].sort().join(', ')})`).toBe(sorted.length);
    const seconds = sorted.map((fire) => Date.parse(fire) / 1000);
    expect(seconds, 'no second was skipped').toEqual(seconds.map((_, index) => (seconds[0] as number) + index));
  }, 60_000);

  it('runs a job again in another process when the process holding it is killed with SIGKILL', async () => {
    const [a, b] = [start('holds', 'hold'), start('holds', 'hold')];
    await until(() => [a, b].every((worker) => worker.lines.includes('ready')), 'two workers ready', 30_000);
    const hold = defineJob({ name: 'process-hold', timeoutMs: 60_000, handler: () => undefined });
    const web = await createApp(defineModule({ name: 'Web', imports: [JobsModule.forRoot({ engine: pgBossJobEngine({ connectionString: database.url, schema: 'holds', heartbeatSeconds: 10 }), role: 'web' })], providers: [hold] }));
    const id = (await web.get(JOBS).enqueue(hold, undefined)) as string;
    await web.close();
    const holder = () => [a, b].find((worker) => worker.lines.includes(`started ${id} 1`));
    await until(() => holder() !== undefined, 'a worker to start the job', 15_000);
    const killed = holder() as Worker;
    const other = killed === a ? b : a;
    killed.child.kill('SIGKILL');
    await until(() => other.lines.includes(`completed ${id} 2`), 'the other worker to complete the job', 45_000);
    expect(killed.lines.filter((line) => line.includes(id)), 'the killed worker only started it').toEqual([`started ${id} 1`]);
  }, 90_000);
});
