// The missed-fire policy: `run-once` runs the latest past fire when an instance starts (once,
// whichever instances start), `skip` leaves it; a fire the engine refused is sent again under
// `run-once` once the engine takes it.
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, defineModule, type App } from '../index.js';
import { createTestLogger } from '../../test/support/test-logger.js';
import { defineJob, JobsModule, memoryJobEngine, type JobEngine } from './index.js';

async function until(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const topOfThisHour = () => {
  const now = new Date();
  now.setUTCMinutes(0, 0, 0);
  return now.toISOString();
};

describe('missed fires', () => {
  const apps: App[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });
  const boot = async (job: unknown, engine: JobEngine) => {
    const { logger, log } = createTestLogger();
    const app = await createApp(defineModule({ name: 'App', imports: [JobsModule.forRoot({ engine })], providers: [job as never] }), { logger });
    apps.push(app);
    return log;
  };

  it("run-once runs the latest past fire at start, once across instances", async () => {
    const fires: string[] = [];
    const job = defineJob({ name: 'hourly-run-once', schedule: { cron: '0 0 * * * *', missed: 'run-once' }, handler: (_p, { fireAt }) => void fires.push((fireAt as Date).toISOString()) });
    const engine = memoryJobEngine();
    await boot(job, engine);
    await boot(job, engine);
    await until(() => fires.length >= 1, 'the missed fire to run');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fires, 'the top of this hour ran once').toEqual([topOfThisHour()]);
  });

  it('skip leaves a past fire alone', async () => {
    const fires: string[] = [];
    const job = defineJob({ name: 'hourly-skip', schedule: { cron: '0 0 * * * *' }, handler: (_p, { fireAt }) => void fires.push((fireAt as Date).toISOString()) });
    await boot(job, memoryJobEngine());
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fires, 'nothing ran').toEqual([]);
  });

  it('run-once sends a refused fire again until the engine takes it', async () => {
    const fires: string[] = [];
    const job = defineJob({ name: 'hourly-refused', schedule: { cron: '0 0 * * * *', missed: 'run-once' }, handler: (_p, { fireAt }) => void fires.push((fireAt as Date).toISOString()) });
    const inner = memoryJobEngine();
    let refusals = 1;
    const flaky: JobEngine = {
      ...inner,
      kind: inner.kind,
      start: () => inner.start(),
      declare: (queue) => inner.declare(queue),
      work: (name, concurrency, run) => inner.work(name, concurrency, run),
      stopWorking: (grace) => inner.stopWorking(grace),
      failed: (name, limit) => inner.failed(name, limit),
      retry: (name, id) => inner.retry(name, id),
      close: () => inner.close(),
      send: (request) => (refusals-- > 0 ? Promise.reject(new Error('engine down')) : inner.send(request)),
    };
    const log = await boot(job, flaky);
    await until(() => fires.length === 1, 'the refused fire to run after the retry');
    expect(fires, 'the missed fire ran once the engine took it').toEqual([topOfThisHour()]);
    expect(log.warnings.map((line) => line.message), 'the refusal was logged').toContain('schedule fire not enqueued, retrying');
  });
});
