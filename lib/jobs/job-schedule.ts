import { Cron } from 'croner';
import { TesseraError } from '../index.js';

/**
 * A job's schedule: a cron expression (with seconds when it has six fields: `*\/5 * * * * *`),
 * read in `timezone` (an IANA name; croner handles the daylight-saving shifts), each fire run
 * once across every instance.
 *
 * @example
 * const schedule: JobSchedule = { cron: '0 0 3 * * *', timezone: 'Europe/Paris', missed: 'run-once' };
 */
export interface JobSchedule {
  readonly cron: string;
  /** Default UTC. */
  readonly timezone?: string;
  /**
   * What happens to fires nobody enqueued (every instance down, the engine unreachable):
   * `skip` (default) forgets them; `run-once` runs the latest of them once, when an instance
   * starts or the engine comes back.
   */
  readonly missed?: 'skip' | 'run-once';
  /** The payload each fire enqueues, checked against the job's schema at boot. Default undefined. */
  readonly payload?: unknown;
}

/**
 * The schedule's fire times, as croner computes them (nothing runs on its own timer).
 *
 * @example
 * const times = scheduleTimes({ cron: '* * * * * *' }); times.nextRun(new Date());
 */
export function scheduleTimes(schedule: JobSchedule): Cron {
  return new Cron(schedule.cron, { timezone: schedule.timezone ?? 'UTC', paused: true });
}

/**
 * Fails the boot on a schedule croner cannot read, or a missed-fire policy it does not know.
 *
 * @example
 * checkSchedule('purge', { cron: '0 0 * * * *' });
 */
export function checkSchedule(job: string, schedule: JobSchedule): void {
  try {
    const times = scheduleTimes(schedule);
    times.stop();
  } catch (error) {
    throw new TesseraError('JOBS_CONFIG', `Job "${job}": schedule "${schedule.cron}"${schedule.timezone ? ` in ${schedule.timezone}` : ''} is not a cron expression croner reads: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (schedule.missed !== undefined && schedule.missed !== 'skip' && schedule.missed !== 'run-once') {
    throw new TesseraError('JOBS_CONFIG', `Job "${job}": schedule.missed is 'skip' or 'run-once', got "${String(schedule.missed)}".`);
  }
}

/**
 * The key of one fire on the engine: the same on every instance, so the engine takes it once.
 *
 * @example
 * fireKey('purge', new Date('2026-11-28T03:00:00Z')); // 'purge@2026-11-28T03:00:00.000Z'
 */
export function fireKey(job: string, fireAt: Date): string {
  return `${job}@${fireAt.toISOString()}`;
}
