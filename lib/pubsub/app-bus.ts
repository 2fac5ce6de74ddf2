import { EngineOutage } from '../resilience/engine-outage.js';
import type { Logger } from '../logging/logger.js';
import type { LibraryTelemetry, TelemetryCounter } from '../telemetry/library-telemetry.js';
import { unrefTimer } from '../common/unref-timer.js';
import { ServiceUnavailableException } from '../http/http-exception.js';
import type { PublishOptions, PubSub } from './pub-sub.js';

/**
 * Options of {@link createAppBus}: `createApp`'s `publishTimeoutMs` and `publishRetryLimit`.
 *
 * @example
 * createAppBus(redisPubSub(redis), { logger, publishTimeoutMs: 100 });
 */
export interface AppBusOptions {
  readonly logger: Logger;
  /** The longest a publish holds its caller, ms. Default 250. */
  readonly publishTimeoutMs?: number | undefined;
  /** How many `retry` messages are kept while the engine refuses them; past it, the oldest goes (counted and logged). Default 10 000. */
  readonly publishRetryLimit?: number | undefined;
  /** First wait before publishing kept messages again, ms; doubles up to 5 s. Default 250. */
  readonly retryDelayMs?: number | undefined;
  /** Where dropped messages are counted (`tessera.pubsub.messages.dropped`): the app's instrumentation, when it collects. */
  readonly telemetry?: (() => LibraryTelemetry | undefined) | undefined;
}

/** Messages the bus gave up on: refused by the engine (at most once) or pushed out of the retry queue. */
const DROPPED: TelemetryCounter = {
  scope: 'tessera-http',
  name: 'tessera.pubsub.messages.dropped',
  description: 'Messages the app\'s bus dropped: its engine refused them (or did not take them in time), or the retry queue was full.',
  unit: '{message}',
};

/**
 * What the app's bus has not delivered, for metrics and tests: messages dropped (an engine
 * refused an at-most-once message, or a kept one was pushed out by the retry limit), messages
 * kept for a retry now, and messages published again after a retry.
 *
 * @example
 * const { dropped, waiting } = app.bus.stats();
 */
export interface BusStats {
  readonly dropped: number;
  readonly waiting: number;
  readonly republished: number;
}

/**
 * The app's bus as `createApp` holds it: the PubSub its providers get, plus its counts and a
 * `stop` that ends the retries without closing an engine the app does not own.
 *
 * @example
 * const bus: AppBus = createAppBus(engine, { logger });
 */
export interface AppBus extends PubSub {
  stats(): BusStats;
  /** Ends the retries (what is kept is dropped); the engine stays open. */
  stop(): void;
}

/**
 * The app's bus (`PUB_SUB`): the engine, with a bound on how long publishing holds a request.
 * Telling other instances is never worth a slow or failed answer for a change already made, so
 * `publish` resolves when the engine took the message or when the bound passed, whichever is
 * first, and never rejects for the engine's fault (a message too large for the engine, a caller's
 * bug, still rejects). What the engine refused (or did not take within the bound) is, by the
 * message's meaning: kept in bounded memory and published again in order once the engine takes
 * messages (`retry: true`: revocations), or dropped and counted (the default: a socket push).
 * Each outage is one log line when the first message is lost and one when the bus delivers again.
 * A subscription is bounded the same way: one the engine has not confirmed within the bound is
 * taken back and rejects with a 503, so a request (an event stream, a socket's first topic) never
 * waits for an engine that is down, and nobody believes they hear a topic nothing carries.
 *
 * @example
 * const bus = createAppBus(engine, { logger });
 * await bus.publish('posts', JSON.stringify(post)); // at most 250 ms, never throws for Redis being down
 */
export function createAppBus(engine: PubSub, options: AppBusOptions): AppBus {
  const timeoutMs = options.publishTimeoutMs ?? 250;
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) throw new RangeError('publishTimeoutMs must be a number of milliseconds > 0');
  const retryLimit = options.publishRetryLimit ?? 10_000;
  if (!(Number.isSafeInteger(retryLimit) && retryLimit >= 0)) throw new RangeError('publishRetryLimit must be an integer >= 0');
  const firstDelay = options.retryDelayMs ?? 250;
  const outage = new EngineOutage('pub/sub publishing', options.logger);
  const kept: { readonly topic: string; readonly message: string }[] = [];
  let dropped = 0;
  let republished = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let delay = firstDelay;
  let closed = false;
  // Publishes the engine has neither taken nor refused (a stalled server): bounded, so that a
  // stall cannot hold an unbounded number of messages in the driver's buffers.
  let inFlight = 0;
  const inFlightLimit = Math.max(1_000, retryLimit);

  const count = (n: number, reason: 'refused' | 'retry_overflow') => {
    const telemetry = options.telemetry?.();
    for (let i = 0; i < n; i++) telemetry?.count(DROPPED, { 'tessera.pubsub.reason': reason });
  };

  const drop = (n: number, topic: string, error: unknown) => {
    dropped += n;
    count(n, 'refused');
    outage.lost(error, { topic });
  };

  const keep = (topic: string, message: string, error: unknown) => {
    outage.lost(error, { topic });
    kept.push({ topic, message });
    if (kept.length > retryLimit) {
      const gone = kept.splice(0, kept.length - retryLimit);
      dropped += gone.length;
      count(gone.length, 'retry_overflow');
      options.logger.error({ event: 'pubsub.retry-overflow', dropped: gone.length, limit: retryLimit }, 'Messages kept for a retry were dropped: the retry limit was reached');
    }
    scheduleRetry();
  };

  const scheduleRetry = () => {
    if (retryTimer !== undefined || closed || kept.length === 0) return;
    retryTimer = unrefTimer(setTimeout(() => void flush(), delay));
  };

  /** Publishes the kept messages in order; stops at the first refusal and tries again later. */
  const flush = async (): Promise<void> => {
    retryTimer = undefined;
    while (kept.length > 0 && !closed) {
      const head = kept[0] as { topic: string; message: string };
      try {
        await engine.publish(head.topic, head.message);
      } catch {
        delay = Math.min(5_000, delay * 2);
        scheduleRetry();
        return;
      }
      kept.shift();
      republished++;
    }
    delay = firstDelay;
    if (kept.length === 0) outage.back({ dropped, republished });
  };

  const stop = () => {
    closed = true;
    clearTimeout(retryTimer);
  };

  return {
    publish(topic: string, message: string, publishOptions?: PublishOptions): Promise<void> {
      const retry = publishOptions?.retry === true;
      // Kept behind earlier kept messages, so that order holds for what must arrive.
      if (retry && kept.length > 0) {
        keep(topic, message, undefined);
        return Promise.resolve();
      }
      if (inFlight >= inFlightLimit) {
        const stalled = new Error(`${inFlight} messages are waiting for the engine`);
        if (retry) keep(topic, message, stalled);
        else drop(1, topic, stalled);
        return Promise.resolve();
      }
      let sent: Promise<void>;
      try {
        sent = engine.publish(topic, message);
      } catch (error) {
        return Promise.reject(error);
      }
      inFlight++;
      return new Promise<void>((resolve, reject) => {
        let settled = false;
        const timer = setTimeout(() => {
          settled = true;
          resolve();
        }, timeoutMs);
        sent.then(
          () => {
            inFlight--;
            clearTimeout(timer);
            if (!outage.up && kept.length === 0) outage.back({ dropped, republished });
            if (!settled) resolve();
          },
          (error: unknown) => {
            inFlight--;
            clearTimeout(timer);
            // A caller's mistake (a message the engine can never carry) is the caller's to hear.
            if (error instanceof RangeError || error instanceof TypeError) {
              if (!settled) reject(error);
              return;
            }
            if (retry) keep(topic, message, error);
            else drop(1, topic, error);
            if (!settled) resolve();
          },
        );
      });
    },
    subscribe(topic, handler) {
      const subscribed = engine.subscribe(topic, handler);
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          // Given up on: taken out at once, so a retry with the same handler is not undone later
          // by this attempt (the engine's table unsubscribes upstream once the pending one lands).
          void engine.unsubscribe(topic, handler).catch(() => undefined);
          reject(new ServiceUnavailableException(`The bus did not subscribe to ${topic} within ${timeoutMs} ms`));
        }, timeoutMs);
        subscribed.then(
          () => {
            clearTimeout(timer);
            resolve();
          },
          (error: unknown) => {
            clearTimeout(timer);
            reject(error);
          },
        );
      });
    },
    unsubscribe: (topic, handler) => engine.unsubscribe(topic, handler),
    async close() {
      stop();
      await engine.close();
    },
    stop,
    ...(engine.listening === undefined ? {} : { listening: () => engine.listening?.() ?? true }),
    ...(engine.onListeningChange === undefined ? {} : { onListeningChange: (listener: (listening: boolean) => void) => engine.onListeningChange?.(listener) ?? (() => undefined) }),
    stats: () => ({ dropped, waiting: kept.length, republished }),
  };
}
