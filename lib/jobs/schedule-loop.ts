import type { Cron } from 'croner';
import type { Logger } from '../index.js';
import { scheduleTimes, type JobSchedule } from './job-schedule.js';

/** Sends one fire to the engine, under its fire key; the engine takes it once whoever sends it. */
export type SendFire = (fireAt: Date) => Promise<void>;

const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;

/**
 * One schedule on one instance: a timer to each fire time croner computes, where the fire is
 * sent to the engine under its key (`fireKey`). Every instance sends every fire and the engine
 * keeps one, so a fire runs once however many instances run the loop, and runs as long as one
 * does. A wake-up later than several fires (a blocked event loop, a suspended machine) sends only
 * the latest. The missed-fire policy: `run-once` sends the latest past fire at start (a no-op
 * when it ran) and keeps re-sending a fire the engine refused until it takes it; `skip` does
 * neither.
 *
 * @example
 * const loop = new ScheduleLoop('purge', { cron: '0 0 * * * *' }, send, logger); loop.start(); loop.stop();
 */
export class ScheduleLoop {
  readonly #times: Cron;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #retryDelayMs = RETRY_FIRST_MS;
  #pending: Date | undefined;
  #stopped = false;

  constructor(
    readonly job: string,
    readonly schedule: JobSchedule,
    readonly send: SendFire,
    readonly logger: Logger,
  ) {
    this.#times = scheduleTimes(schedule);
  }

  start(): void {
    const now = new Date();
    if (this.schedule.missed === 'run-once') {
      const [previous] = this.#times.previousRuns(1, now);
      if (previous !== undefined) this.#fire(previous);
    }
    this.#arm(now);
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    clearTimeout(this.#retryTimer);
    this.#times.stop();
  }

  #arm(after: Date): void {
    if (this.#stopped) return;
    const next = this.#times.nextRun(after);
    if (next === null) return;
    this.#timer = setTimeout(() => this.#wake(next), Math.max(0, next.getTime() - Date.now()));
  }

  #wake(due: Date): void {
    if (this.#stopped) return;
    // A timer may run a little early; croner's times are whole seconds.
    if (Date.now() < due.getTime()) {
      this.#timer = setTimeout(() => this.#wake(due), due.getTime() - Date.now());
      return;
    }
    const [latest] = this.#times.previousRuns(1, new Date(Date.now() + 1));
    const fireAt = latest !== undefined && latest.getTime() > due.getTime() ? latest : due;
    this.#fire(fireAt);
    this.#arm(fireAt);
  }

  #fire(fireAt: Date): void {
    this.send(fireAt).then(
      () => {
        if (this.#pending !== undefined && this.#pending.getTime() <= fireAt.getTime()) this.#pending = undefined;
        this.#retryDelayMs = RETRY_FIRST_MS;
      },
      (error: unknown) => {
        const keep = this.schedule.missed === 'run-once';
        this.logger.warn({ job: this.job, fireAt: fireAt.toISOString(), err: error, missed: this.schedule.missed ?? 'skip' }, keep ? 'schedule fire not enqueued, retrying' : 'schedule fire not enqueued, skipped');
        if (!keep || this.#stopped) return;
        if (this.#pending === undefined || this.#pending.getTime() < fireAt.getTime()) this.#pending = fireAt;
        if (this.#retryTimer === undefined) this.#retryLater();
      },
    );
  }

  #retryLater(): void {
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      const pending = this.#pending;
      if (pending === undefined || this.#stopped) return;
      this.#retryDelayMs = Math.min(RETRY_MAX_MS, this.#retryDelayMs * 2);
      this.#fire(pending);
    }, this.#retryDelayMs);
  }
}
