import { unrefTimer } from '../common/unref-timer.js';
import { TIMED_OUT, within } from './within.js';

/**
 * Asks a connection every `intervalMs` whether it is alive: `probe` sends the question (a Redis
 * PING, a `SELECT 1`) or answers undefined to skip this turn (the connection is not up). A
 * question unanswered within the interval, or refused, calls `silent`; an answer calls `answered`.
 * One question at a time: a stalled server never piles them up. A stalled server keeps its TCP
 * connection open, so only an answer tells it from a quiet one. Returns the function that stops it.
 *
 * @example
 * const stop = startHeartbeat(1_000, () => redis.ping(), () => outage.back(), (error) => outage.lost(error));
 */
export function startHeartbeat(intervalMs: number, probe: () => Promise<unknown> | undefined, answered: () => void, silent: (error: unknown) => void): () => void {
  let asking = false;
  const timer = unrefTimer(
    setInterval(() => {
      if (asking) return;
      const question = probe();
      if (question === undefined) return;
      asking = true;
      void within(question, intervalMs)
        .then((answer) => (answer === TIMED_OUT ? silent(new Error(`no answer within ${intervalMs} ms`)) : answered()), silent)
        .finally(() => (asking = false));
    }, intervalMs),
  );
  return () => clearInterval(timer);
}
