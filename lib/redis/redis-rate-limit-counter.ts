import type { Redis } from 'ioredis';
import { jsonLogger, ServiceUnavailableException, type Logger, type RateLimitCounterOptions, type RateLimitWindow, type WindowedRateLimitCounter } from '../index.js';
import { EngineOutage, FixedWindowRule, TIMED_OUT, within } from '../internal/engines.js';
import { integerAtLeast } from '../internal/primitives.js';

/**
 * Options of {@link RedisRateLimitCounter}.
 *
 * @example
 * const options: RedisRateLimitCounterOptions = { limit: 100, windowMs: 60_000, name: 'api-keys', timeoutMs: 500 };
 */
export interface RedisRateLimitCounterOptions extends RateLimitCounterOptions {
  /** Separates limiters sharing the Redis; default `default`. */
  readonly name?: string | undefined;
  /** How long a decision may wait for Redis, ms; past it the `whenUnavailable` policy applies. Default 500. */
  readonly timeoutMs?: number | undefined;
  /**
   * When Redis does not answer in time: `'fail-closed'` (the default) throws a 503
   * `ServiceUnavailableException`, so nothing goes unlimited; `'fail-open'` lets the request
   * through (0), for limits that protect less than availability does.
   */
  readonly whenUnavailable?: 'fail-closed' | 'fail-open' | undefined;
  /** Told, once per outage, that Redis stopped answering, and once that it is back (`engine.lost` / `engine.back` lines). Default: a JSON logger on stdout. */
  readonly logger?: Logger | undefined;
}

/**
 * The decision in one round trip, atomic in Redis: the window's start and count in one hash,
 * restarted by the first hit at or after its end (`FixedWindowRule.ended` in Lua, on the hit's
 * time and the window length the counter sends), kept for two windows of real time.
 */
const HIT_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local start = tonumber(redis.call('HGET', KEYS[1], 's'))
local hits
if start == nil or now - start >= window then
  start = now
  hits = 1
  redis.call('HSET', KEYS[1], 's', ARGV[1], 'h', 1)
else
  hits = redis.call('HINCRBY', KEYS[1], 'h', 1)
end
redis.call('PEXPIRE', KEYS[1], window * 2)
return { hits, tostring(start) }`;

/**
 * Takes back one hit (`release`): down by one only while the hash still holds the window that
 * started at ARGV[1], and never below 0; atomic with the hits, as one script.
 */
const RELEASE_SCRIPT = `
local start = tonumber(redis.call('HGET', KEYS[1], 's'))
if start ~= nil and start == tonumber(ARGV[1]) and tonumber(redis.call('HGET', KEYS[1], 'h')) > 0 then
  redis.call('HINCRBY', KEYS[1], 'h', -1)
end
return 0`;

const COMMAND = 'tesseraRateLimitHit';
const RELEASE_COMMAND = 'tesseraRateLimitRelease';
type WithHit = Redis & {
  [COMMAND](key: string, now: number, windowMs: number): Promise<[number, string]>;
  [RELEASE_COMMAND](key: string, startMs: number): Promise<number>;
};

/**
 * A fixed-window {@link RateLimitCounter} on Redis (or Valkey), shared by every instance: the
 * first hit of a key opens a window of `windowMs`; up to `limit` hits in it are allowed (0);
 * later ones answer the time left in the window. Each decision is one Lua script run (by SHA,
 * loaded once), atomic in Redis, so concurrent hits from any number of processes are all counted
 * and exactly `limit` pass. A decision that Redis does not answer within `timeoutMs` follows
 * `whenUnavailable` (fail closed: 503, by default); ioredis reconnects by itself and the counter
 * decides again as soon as Redis answers.
 *
 * @example
 * import { Redis } from 'ioredis';
 * const counter = new RedisRateLimitCounter(new Redis(process.env.REDIS_URL), { limit: 100, windowMs: 60_000, name: 'api-keys' });
 * const waitMs = await counter.hit(keyId); // 0 while within the limit
 */
export class RedisRateLimitCounter implements WindowedRateLimitCounter {
  readonly #redis: WithHit;
  readonly #rule: FixedWindowRule;
  readonly #prefix: string;
  readonly #timeoutMs: number;
  readonly #failOpen: boolean;
  readonly #outage: EngineOutage;

  constructor(redis: Redis, options: RedisRateLimitCounterOptions) {
    this.#rule = new FixedWindowRule(options);
    this.#timeoutMs = integerAtLeast(options.timeoutMs ?? 500, 1, 'timeoutMs');
    this.#prefix = `tessera:rl:${options.name ?? 'default'}:`;
    this.#failOpen = options.whenUnavailable === 'fail-open';
    this.#outage = new EngineOutage('redis rate-limit counter', options.logger ?? jsonLogger());
    if (typeof (redis as unknown as Record<string, unknown>)[COMMAND] !== 'function') redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: HIT_SCRIPT });
    if (typeof (redis as unknown as Record<string, unknown>)[RELEASE_COMMAND] !== 'function') redis.defineCommand(RELEASE_COMMAND, { numberOfKeys: 1, lua: RELEASE_SCRIPT });
    this.#redis = redis as unknown as WithHit;
  }

  async hit(key: string): Promise<number> {
    return (await this.hitWindow(key)).waitMs;
  }

  /**
   * Counts one request like `hit`, and answers the whole window: for `RateLimit-*` headers. When
   * Redis is unavailable and the policy is fail-open, the window is reported as unknown (0 hits).
   *
   * @example
   * const { hits, resetAtMs, waitMs } = await counter.hitWindow(keyId);
   */
  async hitWindow(key: string): Promise<RateLimitWindow> {
    const now = this.#rule.now();
    const answer = await this.#ask(() => this.#redis[COMMAND](`${this.#prefix}${key}`, now, this.#rule.windowMs));
    if (answer === undefined) return { hits: 0, resetAtMs: now + this.#rule.windowMs, waitMs: 0 };
    return this.#rule.windowAfter(Number(answer[0]), Number(answer[1]), now);
  }

  /**
   * Takes back one hit counted by `hitWindow` (see `WindowedRateLimitCounter.release`), atomic in
   * Redis. Unanswered in time, it follows `whenUnavailable` like a hit (fail-open: nothing happens).
   *
   * @example
   * const window = await counter.hitWindow(key);
   * await counter.release(key, window); // the count is as before the hit
   */
  async release(key: string, window: RateLimitWindow): Promise<void> {
    await this.#ask(() => this.#redis[RELEASE_COMMAND](`${this.#prefix}${key}`, this.#rule.startOf(window)));
  }

  /** One script run within `timeoutMs`; past it, or on an error, undefined (fail-open) or a 503. */
  async #ask<T>(run: () => Promise<T>): Promise<T | undefined> {
    let answer: T;
    try {
      const decided = await within(run(), this.#timeoutMs);
      if (decided === TIMED_OUT) throw new Error(`no answer from Redis within ${this.#timeoutMs} ms`);
      answer = decided;
    } catch (error) {
      this.#outage.lost(error, { failOpen: this.#failOpen });
      if (this.#failOpen) return undefined;
      throw new ServiceUnavailableException('The rate-limit store is unavailable', undefined, { 'retry-after': '1' });
    }
    this.#outage.back();
    return answer;
  }
}
