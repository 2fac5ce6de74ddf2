import { systemClock } from '../index.js';
import { checkedClock } from '../internal/primitives.js';
import type { Clock, IdempotencyClaim, IdempotencyStore } from '../index.js';
import { createQueryRunner } from './run-query.js';
import type { PostgresStoreOptions, QueryRunner } from './run-query.js';
import type { SqlClient } from './sql-client.js';

/**
 * Options of {@link PostgresIdempotencyStore}.
 *
 * @example
 * const options: PostgresIdempotencyStoreOptions = { queryTimeoutMs: 2_000, clock: systemClock };
 */
export interface PostgresIdempotencyStoreOptions extends PostgresStoreOptions {
  /** Default the system clock. Its time is sent as a parameter (as the rate-limit counter's), so tests can drive it. */
  readonly clock?: Clock | undefined;
}

/**
 * One statement claims or reports. The upsert takes the row lock, so concurrent claims of one id
 * from any number of processes queue on it, and each sees the row as the one before left it:
 * exactly one inserts (or takes over an expired row) and the others read the holder. In
 * `DO UPDATE SET`, `r.*` is the row as it was, so every CASE tests the same expiry; a live row is
 * written back unchanged. The caller holds the claim when the row carries its token.
 */
const CLAIM_SQL = `INSERT INTO tessera_idempotency AS r (id, fingerprint, token, answer, expires_at_ms)
VALUES ($1, $2, $3, NULL, $4::bigint + $5::bigint)
ON CONFLICT (id) DO UPDATE SET
  fingerprint = CASE WHEN r.expires_at_ms <= $4::bigint THEN EXCLUDED.fingerprint ELSE r.fingerprint END,
  token = CASE WHEN r.expires_at_ms <= $4::bigint THEN EXCLUDED.token ELSE r.token END,
  answer = CASE WHEN r.expires_at_ms <= $4::bigint THEN NULL ELSE r.answer END,
  expires_at_ms = CASE WHEN r.expires_at_ms <= $4::bigint THEN EXCLUDED.expires_at_ms ELSE r.expires_at_ms END
RETURNING r.token = $3 AS claimed, r.fingerprint, r.answer`;

/**
 * An {@link IdempotencyStore} in the `tessera_idempotency` table (see `migrate`), shared by every
 * instance on the database: a retry that reaches another instance gets the first one's answer.
 * Each operation is one statement. Rows outlive their expiry until {@link purgeExpired} deletes
 * them (an expired row is never answered from: the next claim takes it over).
 *
 * A database failure throws a `StoreUnavailableError` (503): an idempotent request fails closed,
 * before its handler runs.
 *
 * @example
 * const store = new PostgresIdempotencyStore(pool);
 * defineModule({ name: 'Stores', providers: [{ provide: IDEMPOTENCY_STORE, useValue: store }], exports: [IDEMPOTENCY_STORE] });
 */
export class PostgresIdempotencyStore implements IdempotencyStore {
  readonly #run: QueryRunner;
  readonly #clock: Clock;

  constructor(client: SqlClient, options: PostgresIdempotencyStoreOptions = {}) {
    this.#run = createQueryRunner(client, 'idempotency', options);
    this.#clock = checkedClock(options.clock ?? systemClock);
  }

  async claim(id: string, fingerprint: string, lockMs: number): Promise<IdempotencyClaim> {
    const token = crypto.randomUUID();
    const rows = await this.#run<{ claimed: boolean; fingerprint: string; answer: string | null }>('claim', CLAIM_SQL, [id, fingerprint, token, this.#now(), lockMs], 'write');
    const row = rows[0];
    if (row === undefined) throw new Error('idempotency store: the claim returned no row');
    if (row.claimed) return { state: 'claimed', token };
    return row.answer === null ? { state: 'running', fingerprint: row.fingerprint } : { state: 'completed', fingerprint: row.fingerprint, answer: row.answer };
  }

  async complete(id: string, token: string, answer: string, ttlMs: number): Promise<boolean> {
    const rows = await this.#run(
      'complete',
      'UPDATE tessera_idempotency SET answer = $3, expires_at_ms = $4::bigint WHERE id = $1 AND token = $2 AND answer IS NULL RETURNING 1 AS one',
      [id, token, answer, this.#now() + ttlMs],
      'write',
    );
    return rows.length > 0;
  }

  async release(id: string, token: string): Promise<boolean> {
    const rows = await this.#run('release', 'DELETE FROM tessera_idempotency WHERE id = $1 AND token = $2 AND answer IS NULL RETURNING 1 AS one', [id, token], 'write');
    return rows.length > 0;
  }

  /**
   * Deletes the claims and answers that have expired; answers how many. Run it now and then to
   * keep the table as small as one TTL's keys.
   *
   * @example
   * setInterval(() => void store.purgeExpired(), 3_600_000).unref();
   */
  async purgeExpired(): Promise<number> {
    const rows = await this.#run<{ purged: number }>(
      'purgeExpired',
      'WITH gone AS (DELETE FROM tessera_idempotency WHERE expires_at_ms <= $1::bigint RETURNING 1) SELECT count(*)::int AS purged FROM gone',
      [this.#now()],
      'write',
    );
    return Number(rows[0]?.purged ?? 0);
  }

  #now(): number {
    return Math.floor(this.#clock.now());
  }
}
