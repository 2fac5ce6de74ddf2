import type { Clock, Logger, PubSub } from '../../../index.js';
import { unrefTimer } from '../../../internal/primitives.js';

/** How often an instance that cannot hear the bus reads what it missed from the stores, ms. */
const CATCH_UP_INTERVAL_MS = 1_000;
/** Read back this far before the loss: the instances' and the store's clocks differ a little, ms. */
const CLOCK_MARGIN_MS = 30_000;

/** What the catch-up needs of the auth runtime. */
interface CatchUpRuntime {
  readonly apiKeys: { trustCache(trusted: boolean): void; isUsable(id: string): Promise<boolean | undefined> } | undefined;
  revokeApiKey(id: string): void;
  apiKeysHoldingSockets(): Set<string>;
}

/**
 * Keeps an instance honest while it cannot hear revocations. The bus carries them between
 * instances; when this instance's listening connection is down (`listening()` false, or the
 * revocation topic not yet subscribed), a revocation made elsewhere would go unheard, so:
 *  - cached API-key records stop deciding: every key is read from the store, where the
 *    revocation is already written (the cache is dropped at the loss);
 *  - every second, the sessions ended since the loss are read from the refresh-token store (they
 *    refuse their access tokens and close their sockets), and the API keys holding sockets are
 *    read again (a revoked or expired one closes them);
 *  - once the bus listens again, one last read covers what fell between, and the caches are
 *    trusted again.
 * An engine without `listening` (the in-process one) always hears: nothing runs.
 *
 * @example
 * const catchUp = new RevocationCatchUp(runtime, bus, clock, readEndedSessions, logger, () => subscribed);
 * catchUp.start();
 */
export class RevocationCatchUp {
  readonly #runtime: CatchUpRuntime;
  readonly #bus: PubSub;
  readonly #clock: Clock;
  readonly #readEndedSessions: (sinceMs: number) => Promise<void>;
  readonly #logger: Logger | undefined;
  readonly #subscribed: () => boolean;
  #lostAt: number | undefined;
  #readFrom = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #unwatch: (() => void) | undefined;
  #reading: Promise<void> | undefined;

  constructor(runtime: CatchUpRuntime, bus: PubSub, clock: Clock, readEndedSessions: (sinceMs: number) => Promise<void>, logger: Logger | undefined, subscribed: () => boolean) {
    this.#runtime = runtime;
    this.#bus = bus;
    this.#clock = clock;
    this.#readEndedSessions = readEndedSessions;
    this.#logger = logger;
    this.#subscribed = subscribed;
  }

  /** Whether this instance hears revocations and has caught up: its caches may decide. */
  get trusted(): boolean {
    return this.#lostAt === undefined;
  }

  /** Starts watching the bus (nothing for an engine that cannot lose its connection). */
  start(): void {
    if (this.#bus.listening === undefined) return;
    // At once on a loss the engine reports; the tick covers the rest (and a topic not yet subscribed).
    this.#unwatch = this.#bus.onListeningChange?.((listening) => {
      if (!listening) this.#lose();
    });
    this.#timer = unrefTimer(setInterval(() => void this.tick(), CATCH_UP_INTERVAL_MS));
    if (!this.#hears()) this.#lose();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#unwatch?.();
  }

  /** One step: while unheard, read what was missed; once heard again, read once more and trust. */
  tick(): Promise<void> {
    if (this.#lostAt === undefined && this.#hears()) return Promise.resolve();
    if (this.#lostAt === undefined) this.#lose();
    this.#reading ??= this.#read().finally(() => (this.#reading = undefined));
    return this.#reading;
  }

  #hears(): boolean {
    return this.#subscribed() && this.#bus.listening?.() !== false;
  }

  #lose(): void {
    if (this.#lostAt !== undefined) return;
    const now = this.#clock.now();
    this.#lostAt = now;
    this.#readFrom = now - CLOCK_MARGIN_MS;
    this.#runtime.apiKeys?.trustCache(false);
  }

  async #read(): Promise<void> {
    // Whether the bus was back before this read began: then nothing it missed can fall after it.
    const heardBefore = this.#hears();
    const startedAt = this.#clock.now();
    try {
      await this.#readEndedSessions(this.#readFrom);
      await this.#recheckSocketKeys();
    } catch (error) {
      this.#logger?.warn({ err: error }, 'Revocations missed while the bus was down cannot be read from the stores yet: retrying');
      return;
    }
    this.#readFrom = startedAt - CLOCK_MARGIN_MS;
    if (heardBefore && this.#lostAt !== undefined) {
      this.#logger?.info({ event: 'auth.revocations.caught-up', unheardMs: startedAt - this.#lostAt }, 'Revocations missed while the bus was down have been read from the stores');
      this.#lostAt = undefined;
      this.#runtime.apiKeys?.trustCache(true);
    }
  }

  /** The API keys that hold sockets, read from the store: one revoked or expired meanwhile closes them. */
  async #recheckSocketKeys(): Promise<void> {
    const apiKeys = this.#runtime.apiKeys;
    if (apiKeys === undefined) return;
    for (const id of this.#runtime.apiKeysHoldingSockets()) {
      const usable = await apiKeys.isUsable(id);
      if (usable === undefined) throw new Error('the API-key store cannot answer');
      if (!usable) this.#runtime.revokeApiKey(id);
    }
  }
}
