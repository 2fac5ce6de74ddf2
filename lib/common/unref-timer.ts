/**
 * Lets a timer not hold the process open where the runtime supports it (Node, Bun), and returns
 * it: background timers (idle sweeps, retries) must not keep a process from exiting.
 *
 * @example
 * const sweep = unrefTimer(setInterval(check, 1_000));
 */
export function unrefTimer<T>(timer: T): T {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}
