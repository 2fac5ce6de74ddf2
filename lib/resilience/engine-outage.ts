import type { Logger } from '../logging/logger.js';

/**
 * An engine's connection state as outages move it: up, or down since a moment. Every engine
 * (Redis pub/sub, the Redis counter, PostgreSQL LISTEN, the app's bus) reports through one of
 * these, so losing and regaining an engine is exactly one log line each, however many reconnect
 * attempts or failed commands the outage holds, and the lines look the same for every engine:
 * `{"event":"engine.lost","engine":"redis pub/sub",...}` then
 * `{"event":"engine.back","engine":"redis pub/sub","downMs":...}`.
 *
 * @example
 * const outage = new EngineOutage('redis pub/sub', logger);
 * subscriber.on('error', (error) => outage.lost(error));
 * subscriber.on('ready', () => outage.back());
 */
export class EngineOutage {
  readonly #engine: string;
  readonly #logger: Logger;
  readonly #now: () => number;
  readonly #listeners = new Set<(up: boolean) => void>();
  #downSince: number | undefined;
  /** Whether the current outage was logged (a connection still opening is down, not yet lost). */
  #announced = false;

  /**
   * `startsDown`: the engine is not connected yet; its first connection is not logged as a
   * return, but a first connection that fails is logged as a loss.
   */
  constructor(engine: string, logger: Logger, options: { readonly now?: () => number; readonly startsDown?: boolean } = {}) {
    this.#engine = engine;
    this.#logger = logger;
    this.#now = options.now ?? Date.now;
    if (options.startsDown === true) this.#downSince = this.#now();
  }

  /** Whether the engine is up (never lost, or back since). */
  get up(): boolean {
    return this.#downSince === undefined;
  }

  /** When the current outage began (epoch ms), or undefined while up. */
  get downSince(): number | undefined {
    return this.#downSince;
  }

  /** The engine is lost (a connection error, a failed heartbeat): logged once per outage. */
  lost(error?: unknown, fields: Readonly<Record<string, unknown>> = {}): void {
    if (this.#announced) return;
    this.#announced = true;
    const wasUp = this.#downSince === undefined;
    this.#downSince ??= this.#now();
    this.#logger.warn({ event: 'engine.lost', engine: this.#engine, ...fields, ...(error === undefined ? {} : { err: error }) }, `${this.#engine}: connection lost`);
    if (wasUp) this.#tell(false);
  }

  /** The engine is back: logged once, with how long it was down. */
  back(fields: Readonly<Record<string, unknown>> = {}): void {
    const since = this.#downSince;
    if (since === undefined) return;
    this.#downSince = undefined;
    const announced = this.#announced;
    this.#announced = false;
    if (announced) this.#logger.info({ event: 'engine.back', engine: this.#engine, downMs: this.#now() - since, ...fields }, `${this.#engine}: connection back`);
    this.#tell(true);
  }

  /** Calls `listener` on every change (true: back, false: lost); returns the function that stops it. */
  onChange(listener: (up: boolean) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #tell(up: boolean): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(up);
      } catch (error) {
        this.#logger.error({ err: error, engine: this.#engine }, 'An engine state listener failed');
      }
    }
  }
}
