// One app instance in its own process, for the multi-process job tests: a worker on the
// PostgreSQL job engine (pg-boss) with a per-second schedule and a job that hangs on its first
// attempt. It writes one line per event on stdout: `ready`, `fire <fireAt>`, `started <jobId>
// <attempt>`, `completed <jobId> <attempt>`.
// Usage: node --import ./scripts/register-swc.mjs test/jobs/support/job-process.ts <database url> <schema> <tick|hold>
import { createApp, defineModule } from '../../../lib/index.js';
import { defineJob, JobsModule, pgBossJobEngine } from '../../../lib/jobs/index.js';

const [url, schema, mode] = process.argv.slice(2) as [string, string, 'tick' | 'hold'];
const say = (line: string) => process.stdout.write(`${line}\n`);

const tick = defineJob({ name: 'process-tick', schedule: { cron: '* * * * * *' }, handler: (_payload, { fireAt }) => say(`fire ${(fireAt as Date).toISOString()}`) });
const hold = defineJob({
  name: 'process-hold',
  timeoutMs: 60_000,
  handler: async (_payload, { jobId, attempt }) => {
    say(`started ${jobId} ${attempt}`);
    // The first attempt holds the job until the process is killed.
    if (attempt === 1) await new Promise(() => undefined);
    say(`completed ${jobId} ${attempt}`);
  },
});

const engine = pgBossJobEngine({ connectionString: url, schema, pollingIntervalSeconds: 0.5, heartbeatSeconds: 10, superviseIntervalSeconds: 1, maxConnections: 3 });
const silent = { error() {}, warn() {}, info() {}, debug() {}, child() { return silent; } };
const app = await createApp(defineModule({ name: 'Worker', imports: [JobsModule.forRoot({ engine, role: 'worker' })], providers: [mode === 'tick' ? tick : hold] }), { logger: silent });
say('ready');
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
