// The schedule app on Deno with the real Deno.cron (--unstable-cron): denoCronSchedules registers
// the jobs through a wrapper that records each (name, schedule) and hands it on to Deno.cron,
// which validates both. Run with DENO_CRON_TEST_SCHEDULE_OFFSET=<ms> (Deno's own test hook: each
// cron fires that many ms after it is registered, then again, instead of on its expression), so no
// test waits a minute. Prints one line `schedule-probe {...}` once every job ran, then exits.
import { denoCronSchedules } from '../../../dist/jobs.js';
import { createScheduleApp } from './schedule-app.mjs';

const { app, runs, lines } = await createScheduleApp();
const registered = [];
const controller = new AbortController();
denoCronSchedules(app, (name, schedule, handler) => {
  registered.push({ name, schedule });
  return Deno.cron(name, schedule, { signal: controller.signal }, handler);
});
const deadline = Date.now() + 20_000;
while (new Set(runs.map((run) => run.job)).size < registered.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
controller.abort();
console.log(`schedule-probe ${JSON.stringify({ registered, runs, lines: lines(), reportedAt: new Date().toISOString() })}`);
Deno.exit(0);
