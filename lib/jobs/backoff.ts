import type { JobBackoff } from './job-engine.js';

/**
 * The wait before the retry that follows attempt `attempt` (1 for the first run): `delayMs`,
 * doubled per attempt when exponential, at most `maxDelayMs`.
 *
 * @example
 * backoffDelayMs({ delayMs: 1000, exponential: true, maxDelayMs: 60_000 }, 3); // 4000
 */
export function backoffDelayMs(backoff: JobBackoff, attempt: number): number {
  const delay = backoff.exponential ? backoff.delayMs * 2 ** Math.min(30, attempt - 1) : backoff.delayMs;
  return Math.min(backoff.maxDelayMs, delay);
}
