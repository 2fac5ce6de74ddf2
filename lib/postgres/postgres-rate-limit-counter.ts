import { FixedWindowRule } from '../internal/engines.js';
import type { RateLimitCounterOptions, RateLimitWindow, WindowedRateLimitCounter } from '../index.js';
import { createQueryRunner } from './run-query.js';
import type { PostgresStoreOptions, QueryRunner } from './run-query.js';
import type { SqlClient } from './sql-client.js';

/**
 * Options of {@link PostgresRateLimitCounter}.
 *
 * @example
 * const options: PostgresRateLimitCounterOptions = { limit: 100, windowMs: 60_000, name: 'api-keys' };
 */
export interface PostgresRateLimitCounterOptions extends PostgresStoreOptions, RateLimitCounterOptions {
  /** Separates limiters sharing the table; default `default`. */
  readonly name?: string | undefined;
}

/**
 * One statement counts the hit and reads the window back. The upsert takes the row lock, so
 * concurrent hits from any number of processes queue on it and each sees the previous count: no
 * hit is lost and no two callers get the same count. In `DO UPDATE SET`, `r.*` is the row as it
 * was, so both CASEs test the same (old) window with `FixedWindowRule.ended` in SQL ($3 the hit's
 * time, $4 the window length): a window that has ended restarts at `now` with one hit, else the
 * count goes up.
 */
const HIT_SQL = `INSERT INTO tessera_rate_limits AS r (name, key, window_start_ms, hits)
VALUES ($1, $2, $3::bigint, 1)
ON CONFLICT (name, key) DO UPDATE SET
  window_start_ms = CASE WHEN $3::bigint - r.window_start_ms >= $4::bigint THEN $3::bigint ELSE r.window_start_ms END,
  hits = CASE WHEN $3::bigint - r.window_start_ms >= $4::bigint THEN 1 ELSE LEAST(r.hits, 2147483646) + 1 END
RETURNING hits, window_start_ms::float8 AS window_start_ms`;

/**
 * A fixed-window {@link RateLimitCounter} in the `tessera_rate_limits` table (see `migrate`),
 * shared by every process on the database: the first hit of a key opens a window of `windowMs`;
 * up to `limit` hits in it are allowed (0); later ones answer the time left in the window. The
 * window restarts with the first hit after it ended: the rule of every counter (`FixedWindowRule`).
 *
 * A database failure throws a `StoreUnavailableError` (503): the request fails closed rather
 * than going unlimited.
 *
 * @example
 * const counter = new PostgresRateLimitCounter(pool, { limit: 100, windowMs: 60_000, name: 'api-keys' });
 * const waitMs = await counter.hit(keyId); // 0 while within the limit
 */
export class PostgresRateLimitCounter implements WindowedRateLimitCounter {
  readonly #run: QueryRunner;
  readonly #rule: FixedWindowRule;
  readonly #name: string;

  constructor(client: SqlClient, options: PostgresRateLimitCounterOptions) {
    this.#run = createQueryRunner(client, 'rate-limit', options);
    this.#rule = new FixedWindowRule(options);
    this.#name = options.name ?? 'default';
  }

  async hit(key: string): Promise<number> {
    return (await this.hitWindow(key)).waitMs;
  }

  /**
   * Counts one request like `hit`, and answers the whole window: for `RateLimit-*` headers.
   *
   * @example
   * const { hits, resetAtMs, waitMs } = await counter.hitWindow(keyId);
   */
  async hitWindow(key: string): Promise<RateLimitWindow> {
    const now = this.#rule.now();
    const rows = await this.#run<{ hits: number; window_start_ms: number }>('hit', HIT_SQL, [this.#name, key, now, this.#rule.windowMs]);
    const row = rows[0];
    if (row === undefined) throw new Error('rate-limit store: the upsert returned no row');
    return this.#rule.windowAfter(Number(row.hits), Number(row.window_start_ms), now);
  }

  /**
   * Takes back one hit counted by `hitWindow` (see `WindowedRateLimitCounter.release`): one
   * statement, down by one only while the row still holds that window, never below 0. Run like
   * the hit, as one autocommitted statement: a release whose outcome a timeout leaves unknown
   * either happened or left the count one too high, the safe side for a limit.
   *
   * @example
   * const window = await counter.hitWindow(key);
   * await counter.release(key, window); // the count is as before the hit
   */
  async release(key: string, window: RateLimitWindow): Promise<void> {
    await this.#run(
      'release',
      'UPDATE tessera_rate_limits SET hits = hits - 1 WHERE name = $1 AND key = $2 AND window_start_ms = $3::bigint AND hits > 0',
      [this.#name, key, this.#rule.startOf(window)],
    );
  }

  /**
   * Deletes this limiter's windows that have ended (they would restart on the next hit anyway);
   * answers how many. Run it now and then to keep the table as small as the set of active keys.
   *
   * @example
   * setInterval(() => void counter.sweep(), 600_000).unref();
   */
  async sweep(): Promise<number> {
    const rows = await this.#run<{ swept: number }>(
      'sweep',
      `WITH gone AS (DELETE FROM tessera_rate_limits WHERE name = $1 AND $2::bigint - window_start_ms >= $3::bigint RETURNING 1)
       SELECT count(*)::int AS swept FROM gone`,
      [this.#name, this.#rule.now(), this.#rule.windowMs],
    );
    return Number(rows[0]?.swept ?? 0);
  }
}
