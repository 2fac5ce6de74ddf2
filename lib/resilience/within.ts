/** What {@link within} answers when the time ran out first. */
export const TIMED_OUT: unique symbol = Symbol('timed out');

/**
 * The promise's value, or TIMED_OUT after `ms` (the timer never outlives the race). The promise
 * itself goes on: the caller decides what a late answer means.
 *
 * @example
 * const answer = await within(store.find(id), 500);
 * if (answer === TIMED_OUT) throw new ServiceUnavailableException();
 */
export async function within<T>(pending: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([pending, new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
