import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_DIR, denoBinary, freePort, probeBinary, spawnServer, waitForHttp, workerdBinary } from './runtime-servers.js';

// The jobs' platform schedules inside the platforms themselves, against dist/ (test/runtimes/schedules):
// on workerd, a real scheduled event (through a service binding's scheduled(), as miniflare fires
// one) reaches the worker's `scheduled` export, workersScheduled(app); on Deno, denoCronSchedules
// registers with the real Deno.cron, whose test hook DENO_CRON_TEST_SCHEDULE_OFFSET fires each cron
// shortly after registration instead of on its expression, so nothing waits for a minute.

const root = join(import.meta.dirname, '..', '..');
const START_TIMEOUT_MS = 30_000;
const probes = join(import.meta.dirname, 'schedules');

interface Run {
  readonly job: string;
  readonly fireAt: string;
  readonly attempt: number;
}
interface Line {
  readonly level: string;
  readonly message: string;
  readonly job: string;
  readonly fireAt?: string;
  readonly outcome?: string;
  readonly engine?: string;
}

/** The worker and a trigger worker bound to it, with `service_binding_extra_handlers` (workerd serve --experimental). */
async function startWorkerd(): Promise<{ base: string; stop(): void }> {
  const outdir = join(root, BUILD_DIR, 'schedules');
  mkdirSync(outdir, { recursive: true });
  for (const entry of ['schedule-worker', 'schedule-trigger']) {
    await build({
      entryPoints: [join(probes, `${entry}.mjs`)],
      outfile: join(outdir, `${entry}.js`),
      bundle: true,
      format: 'esm',
      platform: 'browser',
      conditions: ['workerd', 'worker', 'browser'],
      mainFields: ['module', 'main'],
      logLevel: 'error',
    });
  }
  const port = await freePort();
  writeFileSync(
    join(outdir, 'schedules.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "app", worker = .app), (name = "trigger", worker = .trigger)],
  sockets = [(name = "trigger", address = "127.0.0.1:${port}", http = (), service = "trigger")],
);

const app :Workerd.Worker = (modules = [(name = "worker.js", esModule = embed "schedule-worker.js")], compatibilityDate = "2025-11-01");

const trigger :Workerd.Worker = (
  modules = [(name = "trigger.js", esModule = embed "schedule-trigger.js")],
  compatibilityDate = "2025-11-01",
  compatibilityFlags = ["service_binding_extra_handlers"],
  bindings = [(name = "APP", service = "app")],
);
`,
  );
  const server = spawnServer(workerdBinary as string, ['serve', '--experimental', join(outdir, 'schedules.capnp')], {});
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${base}/runs`, START_TIMEOUT_MS, () => server.child.exitCode !== null || server.child.signalCode !== null);
  } catch (error) {
    server.stop();
    throw new Error(`workerd did not start: ${(error as Error).message}\n--- output ---\n${server.output()}`);
  }
  return { base, stop: server.stop };
}

const workerdUnavailable = await probeBinary(workerdBinary);
describe.skipIf(workerdUnavailable !== undefined)(workerdUnavailable === undefined ? 'workersScheduled inside workerd' : `workersScheduled inside workerd (SKIPPED: ${workerdUnavailable})`, () => {
  let server: { base: string; stop(): void } | undefined;
  const hour = Date.UTC(2026, 10, 28, 3);
  let outcomes: { outcome: string }[] = [];
  let seen: { runs: Run[]; lines: Line[] } = { runs: [], lines: [] };
  beforeAll(async () => {
    server = await startWorkerd();
    const fire = async (cron: string, time: number) => (await fetch(`${server?.base}/fire?cron=${encodeURIComponent(cron)}&time=${time}`)).json() as Promise<{ outcome: string }>;
    outcomes = [await fire('0 * * * *', hour), await fire('30 2 * * *', Date.UTC(2026, 10, 28, 2, 30)), await fire('*/5 * * * *', hour + 300_000)];
    seen = (await (await fetch(`${server.base}/runs`)).json()) as typeof seen;
  }, 60_000);
  afterAll(() => server?.stop());

  it('workerd reports each scheduled event as handled', () => {
    expect(outcomes.map((result) => result.outcome), 'the scheduled() outcomes workerd recorded').toEqual(['ok', 'ok', 'ok']);
  });

  it('runs the jobs of the fired cron only, fireAt the event’s scheduledTime', () => {
    expect(seen.runs, 'one run per fired cron; none for a cron no job declares').toEqual([
      { job: 'tenants.purge', fireAt: '2026-11-28T03:00:00.000Z', attempt: 1 },
      { job: 'nightly', fireAt: '2026-11-28T02:30:00.000Z', attempt: 1 },
    ]);
  });

  it('writes each run’s one log line through the app’s logger', () => {
    expect(seen.lines.map(({ job, fireAt, outcome, engine }) => ({ job, fireAt, outcome, engine })), 'the job log lines').toEqual([
      { job: 'tenants.purge', fireAt: '2026-11-28T03:00:00.000Z', outcome: 'completed', engine: 'platform' },
      { job: 'nightly', fireAt: '2026-11-28T02:30:00.000Z', outcome: 'completed', engine: 'platform' },
    ]);
  });
});

/** Runs the Deno probe to its one report line. */
function runDenoProbe(): Promise<{ registered: { name: string; schedule: string }[]; runs: Run[]; lines: Line[]; reportedAt: string }> {
  const args = ['run', '--no-prompt', '--no-lock', '--unstable-cron', `--allow-read=${root}`, '--allow-env', join('test', 'runtimes', 'schedules', 'schedule-deno.mjs')];
  const server = spawnServer(denoBinary as string, args, { DENO_CRON_TEST_SCHEDULE_OFFSET: '200' });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (server.stop(), reject(new Error(`no report within ${START_TIMEOUT_MS} ms\n${server.output()}`))), START_TIMEOUT_MS);
    server.child.once('exit', () => {
      clearTimeout(timer);
      const match = /schedule-probe (\{.*\})/.exec(server.output());
      if (match?.[1] === undefined) reject(new Error(`the Deno probe printed no report\n--- output ---\n${server.output()}`));
      else resolve(JSON.parse(match[1]) as Awaited<ReturnType<typeof runDenoProbe>>);
    });
  });
}

const denoUnavailable = await probeBinary(denoBinary);
describe.skipIf(denoUnavailable !== undefined)(denoUnavailable === undefined ? 'denoCronSchedules inside Deno' : `denoCronSchedules inside Deno (SKIPPED: ${denoUnavailable})`, () => {
  let report: Awaited<ReturnType<typeof runDenoProbe>> | undefined;
  beforeAll(async () => {
    report = await runDenoProbe();
  }, 60_000);
  const firstRun = (job: string) => {
    const run = report?.runs.find((candidate) => candidate.job === job);
    expect(run, `${job} never ran under Deno.cron: ${JSON.stringify(report?.runs)}`).toBeDefined();
    return run as Run;
  };

  it('registers each scheduled job under a name Deno.cron accepts, with its five-field UTC cron', () => {
    expect(report?.registered, 'what denoCronSchedules handed to Deno.cron (which refuses a `.` in a name)').toEqual([
      { name: 'tenants-purge', schedule: '0 * * * *' },
      { name: 'nightly', schedule: '30 2 * * *' },
      { name: 'every-minute', schedule: '* * * * *' },
    ]);
  });

  it('runs each job when Deno.cron fires it, attempt 1', () => {
    expect(['tenants.purge', 'nightly', 'every-minute'].map((job) => firstRun(job).attempt), 'each job ran through the runtime').toEqual([1, 1, 1]);
  });

  it('gives each run the latest fire time its cron names, at or before the run', () => {
    const reported = Date.parse(report?.reportedAt ?? '');
    // Whole steps of the cron (offset into the step), at most one step (and the probe's wait) before the report.
    const fireOf = (job: string, step: number, offset = 0) => {
      const at = Date.parse(firstRun(job).fireAt);
      return { alignedToTheCron: (at - offset) % step === 0, notAfterTheRun: at <= reported, theLatest: reported - at < step + 20_000 };
    };
    const expected = { alignedToTheCron: true, notAfterTheRun: true, theLatest: true };
    expect(fireOf('every-minute', 60_000), 'every-minute: the whole minute').toEqual(expected);
    expect(fireOf('tenants.purge', 3_600_000), 'hourly: the whole hour').toEqual(expected);
    expect(fireOf('nightly', 86_400_000, 9_000_000), 'nightly: 02:30 UTC').toEqual(expected);
  });

  it('writes each run’s one log line through the app’s logger', () => {
    const line = report?.lines.find((candidate) => candidate.job === 'tenants.purge');
    expect(line, 'the purge’s log line').toMatchObject({ message: 'job completed', outcome: 'completed', engine: 'platform', fireAt: firstRun('tenants.purge').fireAt });
  });
});
