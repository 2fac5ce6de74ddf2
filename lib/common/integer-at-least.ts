// A general validator of numeric options (limits, windows, retries, timeouts), used across the
// core and the satellites; it lived in the rate-limit counter's file until issue 47.

/**
 * A numeric option checked at construction: a safe integer of at least `min`, else a RangeError
 * naming the option (the rate-limit counters' `limit` and `windowMs`, the idempotency store's
 * bounds, the engines' timeouts).
 *
 * @example
 * const limit = integerAtLeast(options.limit, 0, 'limit');
 */
export function integerAtLeast(value: number, min: number, name: string): number {
  if (!(Number.isSafeInteger(value) && value >= min)) throw new RangeError(`${name} must be an integer >= ${min}`);
  return value;
}
