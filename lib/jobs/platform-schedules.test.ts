// The same schedule declarations on a platform's scheduler: workerd's scheduled() handler and
// Deno.cron. Each fire runs the job once, with its log line; a schedule a platform cannot fire
// (seconds, another time zone) is refused by name.
import { describe, expect, it, vi } from 'vitest';
import { createApp, defineModule } from '../index.js';
import { createTestLogger } from '../../test/support/test-logger.js';
import { defineJob, denoCronSchedules, JobsModule, platformSchedules, workersScheduled, type JobSchedule } from './index.js';

async function appWith(schedule: JobSchedule, fires: Date[], name = 'platform-purge') {
  const job = defineJob({ name, schedule, handler: (_p, { fireAt }) => void fires.push(fireAt as Date) });
  const { logger, log } = createTestLogger();
  const app = await createApp(defineModule({ name: 'App', imports: [JobsModule.forRoot({ role: 'web' })], providers: [job] }), { logger });
  return { app, log };
}

describe('platform schedules', () => {
  it('maps a cron with a zero second onto the five fields a platform reads', async () => {
    const { app } = await appWith({ cron: '0 0 * * * *' }, []);
    expect(platformSchedules(app), 'the hourly purge as a platform cron').toEqual([{ job: 'platform-purge', cron: '0 * * * *' }]);
  });

  it('workersScheduled runs the jobs of the fired cron, fireAt the trigger’s scheduledTime, with its log line', async () => {
    const fires: Date[] = [];
    const { app, log } = await appWith({ cron: '0 0 * * * *' }, fires);
    const scheduled = workersScheduled(app);
    const waited: Promise<unknown>[] = [];
    await scheduled({ cron: '0 * * * *', scheduledTime: Date.UTC(2026, 10, 28, 3) }, {}, { waitUntil: (promise) => void waited.push(promise) });
    await scheduled({ cron: '*/5 * * * *', scheduledTime: Date.UTC(2026, 10, 28, 3, 5) });
    expect(fires.map((fire) => fire.toISOString()), 'the hourly job ran once, for its own cron').toEqual(['2026-11-28T03:00:00.000Z']);
    expect(waited, 'the run was handed to waitUntil').toHaveLength(1);
    expect(log.infos.find((line) => line.message === 'job completed')?.fields, 'one log line with the fire time').toMatchObject({ job: 'platform-purge', fireAt: '2026-11-28T03:00:00.000Z', outcome: 'completed', attempt: 1 });
  });

  it('denoCronSchedules registers each scheduled job with Deno.cron, and its handler runs the job', async () => {
    const fires: Date[] = [];
    const { app } = await appWith({ cron: '0 30 2 * * *' }, fires);
    const registered: { name: string; schedule: string; handler: () => Promise<void> }[] = [];
    denoCronSchedules(app, (name, schedule, handler) => registered.push({ name, schedule, handler }));
    expect(registered.map(({ name, schedule }) => ({ name, schedule })), 'registered under the job’s name').toEqual([{ name: 'platform-purge', schedule: '30 2 * * *' }]);
    await registered[0]?.handler();
    expect(fires, 'the handler ran the job').toHaveLength(1);
  });

  it('denoCronSchedules registers a job named with a dot under a name Deno.cron accepts', async () => {
    const { app } = await appWith({ cron: '0 0 * * * *' }, [], 'tenants.purge');
    const names: string[] = [];
    denoCronSchedules(app, (name) => names.push(name));
    expect(names, 'Deno.cron refuses "." in a name: letters, digits, spaces, - and _ only').toEqual(['tenants-purge']);
  });

  it('denoCronSchedules refuses, naming both jobs, two jobs whose Deno.cron names meet', async () => {
    const job = (name: string) => defineJob({ name, schedule: { cron: '0 0 * * * *' }, handler: () => undefined });
    const app = await createApp(defineModule({ name: 'App', imports: [JobsModule.forRoot({ role: 'web' })], providers: [job('a.b'), job('a-b')] }));
    expect(() => denoCronSchedules(app, () => undefined), 'two jobs, one Deno.cron name').toThrow(/"a\.b" and "a-b"/);
  });

  it('denoCronSchedules gives a run the latest fire its cron names, not the minute it runs in', async () => {
    const fires: Date[] = [];
    const { app } = await appWith({ cron: '0 0 * * * *' }, fires);
    const registered: (() => Promise<void>)[] = [];
    denoCronSchedules(app, (_name, _schedule, handler) => registered.push(handler));
    // A run 17 min after the hour's fire (Deno retries a failed handler, with backoff): still that fire.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 10, 28, 3, 17, 42) });
    try {
      await registered[0]?.();
    } finally {
      vi.useRealTimers();
    }
    expect(fires.map((fire) => fire.toISOString()), 'the hour the run belongs to, not the minute it ran in').toEqual(['2026-11-28T03:00:00.000Z']);
  });

  it('refuses, naming the job, a schedule with seconds or in another time zone', async () => {
    const { app: everySecond } = await appWith({ cron: '* * * * * *' }, []);
    expect(() => platformSchedules(everySecond), 'below the minute').toThrow(/platform-purge.*below the minute/);
    const { app: paris } = await appWith({ cron: '0 0 3 * * *', timezone: 'Europe/Paris' }, []);
    expect(() => platformSchedules(paris), 'another zone').toThrow(/platform-purge.*Europe\/Paris/);
  });
});
