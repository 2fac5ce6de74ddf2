/**
 * A per-key request counter for application rate limits (the auth module has none of its own;
 * see SPEC "Rate limiting"). `hit(key)` counts one request for `key` and answers how many
 * milliseconds the caller must wait before the key is allowed again: 0 when the request is
 * within the limit. Implementations: an in-memory fixed window (one process), and
 * `PostgresRateLimitCounter` (shared by every instance on one database).
 *
 * @example
 * const waitMs = await counter.hit(apiKey.id);
 * if (waitMs > 0) throw new TooManyRequestsException('Over the limit', undefined, { 'retry-after': String(Math.ceil(waitMs / 1000)) });
 */
export interface RateLimitCounter {
  hit(key: string): Promise<number>;
}

/**
 * A counter option checked at construction: a safe integer of at least `min`, else a RangeError
 * naming the option. Shared by the PostgreSQL and Redis counters.
 *
 * @example
 * const limit = integerAtLeast(options.limit, 0, 'limit');
 */
export function integerAtLeast(value: number, min: number, name: string): number {
  if (!(Number.isSafeInteger(value) && value >= min)) throw new RangeError(`${name} must be an integer >= ${min}`);
  return value;
}
