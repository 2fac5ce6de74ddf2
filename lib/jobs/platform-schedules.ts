import { TesseraError } from '../index.js';
import { JOBS, type JobQueue } from './job-queue.js';
import { scheduleTimes } from './job-schedule.js';
import { JobsRuntime } from './jobs-runtime.js';

/** What these functions need of an app: its providers. */
export interface AppWithJobs {
  get(token: typeof JOBS): JobQueue;
}

/**
 * One scheduled job as a platform scheduler takes it: a five-field cron in UTC (workerd's cron
 * triggers, `Deno.cron`), with minute precision.
 *
 * @example
 * const schedule: PlatformSchedule = { job: 'tenants.purge', cron: '0 * * * *' };
 */
export interface PlatformSchedule {
  readonly job: string;
  readonly cron: string;
}

function runtimeOf(app: AppWithJobs): JobsRuntime {
  const jobs = app.get(JOBS);
  if (!(jobs instanceof JobsRuntime)) throw new TesseraError('JOBS_CONFIG', 'The app has no JobsModule.forRoot() runtime.');
  return jobs;
}

/** A croner expression as a platform's five fields: seconds must be 0, the zone UTC. */
function platformCron(job: string, cron: string, timezone: string | undefined): string {
  if (timezone !== undefined && timezone !== 'UTC' && timezone !== 'Etc/UTC') {
    throw new TesseraError('JOBS_CONFIG', `Job "${job}": the platform's scheduler reads cron in UTC; "${timezone}" cannot be mapped onto it.`);
  }
  const fields = cron.trim().split(/\s+/);
  if (fields.length === 5) return fields.join(' ');
  if (fields.length === 6 && fields[0] === '0') return fields.slice(1).join(' ');
  throw new TesseraError('JOBS_CONFIG', `Job "${job}": "${cron}" fires below the minute; the platform's scheduler fires at most once a minute.`);
}

/**
 * The app's scheduled jobs as a platform's scheduler takes them: what to write in
 * `wrangler.toml`'s `[triggers] crons`, or what `denoCronSchedules` registers. Fails, naming the
 * job, for a schedule with seconds or another time zone, which the platforms cannot fire.
 *
 * @example
 * platformSchedules(app).map((s) => s.cron); // ['0 * * * *']
 */
export function platformSchedules(app: AppWithJobs): PlatformSchedule[] {
  return runtimeOf(app)
    .scheduledJobs()
    .map(({ name, schedule }) => ({ job: name, cron: platformCron(name, schedule.cron, schedule.timezone) }));
}

/**
 * On workerd, the platform's `scheduled()` handler for the app's scheduled jobs: Cloudflare
 * fires each cron trigger once, so the handler runs the jobs whose cron it is (their one log
 * line, span and metric included), with `fireAt` the trigger's `scheduledTime`. Declare the
 * crons (see `platformSchedules`) as `[triggers] crons`; run the app with `role: 'web'` so no
 * in-process schedule runs beside them.
 *
 * @example
 * export default { fetch: app.fetch, scheduled: workersScheduled(app) };
 */
export function workersScheduled(app: AppWithJobs): (controller: { readonly cron: string; readonly scheduledTime: number }, env?: unknown, context?: { waitUntil(promise: Promise<unknown>): void }) => Promise<void> {
  const schedules = platformSchedules(app);
  const runtime = runtimeOf(app);
  return async (controller, _env, context) => {
    const due = schedules.filter((schedule) => schedule.cron === controller.cron.trim().split(/\s+/).join(' '));
    const runs = Promise.all(due.map((schedule) => runtime.runScheduled(schedule.job, new Date(controller.scheduledTime))));
    context?.waitUntil(runs);
    await runs;
  };
}

/** The part of `Deno.cron` these schedules use. */
export type DenoCron = (name: string, schedule: string, handler: () => Promise<void>) => unknown;

/** What `Deno.cron` accepts as a name: letters, digits, spaces, `-` and `_`, at most 64 characters. */
const DENO_CRON_NAME_LENGTH = 64;

/**
 * The `Deno.cron` name of each job: its name with every character Deno refuses (a job's `.`, as in
 * `tenants.purge`) as `-`. Fails, naming the jobs, when two names meet or one is too long, rather
 * than letting Deno refuse the second at boot with a message that names neither job.
 */
function denoCronNames(jobs: readonly string[]): Map<string, string> {
  const names = new Map<string, string>();
  const owners = new Map<string, string>();
  for (const job of jobs) {
    const name = job.replace(/[^A-Za-z0-9 _-]/g, '-');
    if (name.length > DENO_CRON_NAME_LENGTH) throw new TesseraError('JOBS_CONFIG', `Job "${job}": Deno.cron takes names of at most ${DENO_CRON_NAME_LENGTH} characters.`);
    const owner = owners.get(name);
    if (owner !== undefined) throw new TesseraError('JOBS_CONFIG', `Jobs "${owner}" and "${job}" are both "${name}" as Deno.cron names (letters, digits, spaces, - and _): rename one.`);
    owners.set(name, job);
    names.set(job, name);
  }
  return names;
}

/**
 * On Deno, registers each scheduled job with `Deno.cron` (Deno Deploy runs each fire once across
 * the deployment); each fire runs the job, `fireAt` the latest time the job's cron names, at or
 * before the run (so a run Deno retries after a failure keeps its fire's time). The cron name is
 * the job's name with any character Deno refuses as `-` (`tenants.purge` is `tenants-purge`).
 * Run the app with `role: 'web'` so no in-process schedule runs beside them.
 *
 * @example
 * denoCronSchedules(app, Deno.cron);
 */
export function denoCronSchedules(app: AppWithJobs, cron: DenoCron): void {
  const runtime = runtimeOf(app);
  const schedules = platformSchedules(app);
  const names = denoCronNames(schedules.map((schedule) => schedule.job));
  for (const schedule of schedules) {
    const times = scheduleTimes({ cron: schedule.cron, timezone: 'UTC' });
    cron(names.get(schedule.job) as string, schedule.cron, async () => {
      const now = new Date();
      // previousRuns answers the times strictly before its reference: 1 ms on, a run at the fire's very instant counts.
      const fireAt = times.previousRuns(1, new Date(now.getTime() + 1))[0] ?? new Date(Math.floor(now.getTime() / 60_000) * 60_000);
      await runtime.runScheduled(schedule.job, fireAt);
    });
  }
}
