import type { Redis } from 'ioredis';
import { ServiceUnavailableException, type IdempotencyClaim, type IdempotencyStore } from '../index.js';
import { TIMED_OUT, within } from '../internal/engines.js';
import { integerAtLeast } from '../internal/primitives.js';

/**
 * Options of {@link RedisIdempotencyStore}.
 *
 * @example
 * const options: RedisIdempotencyStoreOptions = { name: 'orders', timeoutMs: 500 };
 */
export interface RedisIdempotencyStoreOptions {
  /** Separates apps sharing the Redis; default `default`. */
  readonly name?: string | undefined;
  /** How long an operation may wait for Redis, ms; past it a claim fails closed (503). Default 500. */
  readonly timeoutMs?: number | undefined;
}

/** A held record, as stored: a claim `{ t: token, f: fingerprint }`, or an answer `{ f, a: answer }`. */
interface Held {
  readonly t?: string;
  readonly f: string;
  readonly a?: string;
}

/**
 * Settles the claim with `token`, only while it is the one held (not completed, not taken over
 * after it expired): `release` drops it; `complete` replaces it by the answer, keeping the
 * claim's fingerprint (a later reuse of the key with another request is still a 422).
 */
const SETTLE_SCRIPT = `
local held = redis.call('GET', KEYS[1])
if not held then return 0 end
local record = cjson.decode(held)
if record.t ~= ARGV[1] then return 0 end
if ARGV[2] == 'release' then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], cjson.encode({ f = record.f, a = ARGV[3] }), 'PX', ARGV[4])
end
return 1`;

const SETTLE = 'tesseraIdempotencySettle';
type WithSettle = Redis & { [SETTLE](key: string, token: string, how: 'complete' | 'release', answer: string, ttlMs: number): Promise<number> };

/**
 * An {@link IdempotencyStore} on Redis (or Valkey), shared by every instance. A claim is one
 * `SET key claim NX PX lockMs GET` (Redis 7+): atomic, it either makes the claim or returns what
 * holds the key, in one round trip. Completing or releasing is one Lua script that checks the token
 * first, so a request whose claim expired and was taken over cannot overwrite its successor's.
 * Expiry is Redis's own (`PX`): every instance agrees on it whatever its clock says, and nothing
 * needs purging. No command scans keys.
 *
 * Redis not answering within `timeoutMs` makes a claim fail closed with a 503 (`retry-after: 1`),
 * before the handler runs; ioredis reconnects by itself.
 *
 * @example
 * import { Redis } from 'ioredis';
 * const store = new RedisIdempotencyStore(new Redis(process.env.REDIS_URL));
 */
export class RedisIdempotencyStore implements IdempotencyStore {
  readonly #redis: WithSettle;
  readonly #prefix: string;
  readonly #timeoutMs: number;

  constructor(redis: Redis, options: RedisIdempotencyStoreOptions = {}) {
    this.#prefix = `tessera:idempotency:${options.name ?? 'default'}:`;
    this.#timeoutMs = integerAtLeast(options.timeoutMs ?? 500, 1, 'timeoutMs');
    if (typeof (redis as unknown as Record<string, unknown>)[SETTLE] !== 'function') redis.defineCommand(SETTLE, { numberOfKeys: 1, lua: SETTLE_SCRIPT });
    this.#redis = redis as unknown as WithSettle;
  }

  async claim(id: string, fingerprint: string, lockMs: number): Promise<IdempotencyClaim> {
    const token = crypto.randomUUID();
    const claim: Held = { t: token, f: fingerprint };
    const previous = await this.#ask(this.#redis.call('SET', this.#prefix + id, JSON.stringify(claim), 'PX', String(lockMs), 'NX', 'GET'));
    if (previous === null) return { state: 'claimed', token };
    const held = JSON.parse(String(previous)) as Held;
    return held.a === undefined ? { state: 'running', fingerprint: held.f } : { state: 'completed', fingerprint: held.f, answer: held.a };
  }

  async complete(id: string, token: string, answer: string, ttlMs: number): Promise<boolean> {
    return (await this.#ask(this.#redis[SETTLE](this.#prefix + id, token, 'complete', answer, ttlMs))) === 1;
  }

  async release(id: string, token: string): Promise<boolean> {
    return (await this.#ask(this.#redis[SETTLE](this.#prefix + id, token, 'release', '', 0))) === 1;
  }

  async #ask<T>(pending: Promise<T>): Promise<T> {
    let answer: T | typeof TIMED_OUT;
    try {
      answer = await within(pending, this.#timeoutMs);
    } catch {
      throw new ServiceUnavailableException('The idempotency store is unavailable', undefined, { 'retry-after': '1' });
    }
    if (answer === TIMED_OUT) {
      pending.catch(() => undefined);
      throw new ServiceUnavailableException('The idempotency store is unavailable', undefined, { 'retry-after': '1' });
    }
    return answer;
  }
}
