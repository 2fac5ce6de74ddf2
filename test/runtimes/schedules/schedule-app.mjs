// The app of the platform-schedule checks (platform-schedules.test.ts), built against dist/: two
// scheduled jobs declared as any app declares them (one named like the tenants purge, with a `.`),
// run with role 'web' so only the platform's scheduler fires them. Each run is recorded with its
// fireAt and attempt, and the job log lines the app's logger received are kept, for the test.
import { createApp, defineModule } from '../../../dist/index.js';
import { defineJob, JobsModule } from '../../../dist/jobs.js';

/** @example const { app, runs, lines } = await createScheduleApp(); */
export async function createScheduleApp() {
  const runs = [];
  const lines = [];
  const record = (level) => (fields, message) => void lines.push({ level, message, ...fields });
  const logger = { error: record('error'), warn: record('warn'), info: record('info'), debug: () => undefined, child: () => logger };
  const job = (name, cron) =>
    defineJob({ name, schedule: { cron }, handler: (_payload, { fireAt, attempt }) => void runs.push({ job: name, fireAt: fireAt?.toISOString(), attempt }) });
  const AppModule = defineModule({
    name: 'ScheduleApp',
    imports: [JobsModule.forRoot({ role: 'web' })],
    providers: [job('tenants.purge', '0 0 * * * *'), job('nightly', '0 30 2 * * *'), job('every-minute', '* * * * *')],
  });
  const app = await createApp(AppModule, { logger });
  return { app, runs, lines: () => lines.filter((line) => line.job !== undefined) };
}
