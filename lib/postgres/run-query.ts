import { TIMED_OUT, within } from '../internal/engines.js';
import type { SqlClient, SqlResult } from './sql-client.js';
import { lendsConnections } from './sql-pool.js';
import { StoreUnavailableError } from './store-unavailable-error.js';
import { assertSqlClient, contractBroken } from './sql-client-check.js';
import { storeTimeout, writeInTransaction } from './write-in-transaction.js';

/**
 * Default bound on one store query, ms. Sign-in and refresh wait for the store, so a database
 * that stops answering (a network partition rather than a refused connection) must become a 503
 * well before a client or a load balancer gives up on the request.
 *
 * @example
 * new PostgresRefreshTokenStore(pool, { queryTimeoutMs: DEFAULT_QUERY_TIMEOUT_MS });
 */
export const DEFAULT_QUERY_TIMEOUT_MS = 5_000;

/**
 * Default time a write's outcome may still take after `queryTimeoutMs`, ms, once it can no longer
 * be taken back. A store that answered 503 at the timeout while the write went on to commit would
 * lie: a refresh answered 503 whose rotation committed anyway turns the client's retry into token
 * reuse and logs the user out. On a pool (see `SqlPool`) a write that has not answered by the
 * timeout is rolled back, so only a COMMIT already sent waits here; on a client with `query`
 * alone (PGlite), every write that outlives the timeout does.
 *
 * @example
 * new PostgresRefreshTokenStore(pool, { settleTimeoutMs: DEFAULT_SETTLE_TIMEOUT_MS });
 */
export const DEFAULT_SETTLE_TIMEOUT_MS = 30_000;

/**
 * A driver failure, reduced to what is safe to log: the SQLSTATE code (when the server sent one)
 * and the message. Drivers attach the statement's parameters (PGlite) and the server's `detail`
 * (pg), which can quote stored values, so neither is kept.
 *
 * @example
 * onError: (failure) => logger.error(`${failure.store}.${failure.operation} failed: ${failure.code ?? ''} ${failure.message}`)
 */
export interface StoreFailure {
  readonly store: string;
  readonly operation: string;
  readonly code: string | undefined;
  readonly message: string;
}

/**
 * Options every PostgreSQL store takes.
 *
 * @example
 * const options: PostgresStoreOptions = { queryTimeoutMs: 2_000, onError: (f) => log.warn(f) };
 */
export interface PostgresStoreOptions {
  /** Bound on one query, ms; default {@link DEFAULT_QUERY_TIMEOUT_MS}. 0 turns the bound off. */
  readonly queryTimeoutMs?: number | undefined;
  /**
   * For statements that change state: how much longer than `queryTimeoutMs` to wait for the real
   * outcome of a write that can no longer be taken back (a COMMIT sent, or on a client that lends
   * no connection, the statement sent) before answering 503 with the outcome unknown, ms; default
   * {@link DEFAULT_SETTLE_TIMEOUT_MS}. Reads give up at `queryTimeoutMs`.
   */
  readonly settleTimeoutMs?: number | undefined;
  /** Told about every query that failed for a reason other than a broken constraint (default: one `console.error` line). Never receives parameters. */
  readonly onError?: ((failure: StoreFailure) => void) | undefined;
}

/**
 * Runs one statement for a store; see {@link createQueryRunner}. `write` marks a statement that
 * changes state: a 503 for it means it did not commit, nor will (or, past both bounds, that its
 * outcome is unknown, logged as OUTCOME_UNKNOWN).
 */
export type QueryRunner = <Row>(operation: string, text: string, params: unknown[], kind?: 'read' | 'write') => Promise<Row[]>;

/**
 * SQLSTATE class 23: a broken constraint (a duplicate key, a NOT NULL). That is a caller bug or
 * a conflict, not an outage, so it must not read as "try again later".
 */
function isConstraintViolation(code: string | undefined): boolean {
  return code !== undefined && code.startsWith('23');
}

function sanitise(error: unknown): { code: string | undefined; message: string } {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : 'non-Error rejection';
  return { code: typeof code === 'string' ? code : undefined, message };
}

function logFailure(failure: StoreFailure): void {
  console.error(`[tessera-http/postgres] ${failure.store} store: ${failure.operation} failed: ${failure.code ?? '-'} ${failure.message}`);
}

/** Carries a broken-contract error past the outage handling, which would make it a 503. */
class ContractBroken {
  constructor(readonly error: TypeError) {}
}

/**
 * Sends the statement. A driver answers every failure of the database (refused, lost, timed out,
 * and a fetch-based driver's `TypeError: fetch failed`) by rejecting the promise; a `query` that
 * throws, or answers no promise, is not a driver at all.
 */
function startQuery<Row>(client: SqlClient, store: string, operation: string, text: string, params: unknown[]): Promise<SqlResult<Row>> {
  let pending: unknown;
  try {
    pending = client.query<Row>(text, params);
  } catch (error) {
    throw new ContractBroken(contractBroken(store, operation, `query() threw instead of answering a promise: ${error instanceof Error ? error.message : 'non-Error thrown'}`));
  }
  if (typeof (pending as { then?: unknown } | null)?.then !== 'function') {
    throw new ContractBroken(contractBroken(store, operation, `query() answered ${pending === null ? 'null' : typeof pending} instead of a promise`));
  }
  return pending as Promise<SqlResult<Row>>;
}

/**
 * Wraps a {@link SqlClient} for one store: every read is bounded by the timeout; every write
 * either answers within it or is rolled back (on a client that lends connections, as pg's Pool
 * does: the write runs in a transaction whose COMMIT is sent only in time) or waits for its real
 * outcome (see {@link DEFAULT_SETTLE_TIMEOUT_MS}); and every
 * failure is reported to `onError` and rethrown as a {@link StoreUnavailableError} (503), except a
 * constraint violation, which becomes `onConstraint(operation)` (a plain Error by default).
 * A client that is no `SqlClient` is a wiring mistake, not an outage: refused here with a
 * TypeError naming the store and what is missing, and a `query` that throws or answers no
 * promise is a TypeError (500), never a 503.
 * The library's stores use it, and so can an application's own PostgreSQL stores, so that a
 * database outage answers the same 503 on every route.
 *
 * @example
 * const run = createQueryRunner(client, 'refresh-token', options);
 * const rows = await run<{ one: number }>('markRotated', 'UPDATE ... RETURNING 1 AS one', [hash, at]);
 */
export function createQueryRunner(
  client: SqlClient,
  store: string,
  options: PostgresStoreOptions = {},
  onConstraint: (operation: string) => Error = (operation) => new Error(`${store} store: ${operation} conflicts with stored data`),
): QueryRunner {
  assertSqlClient(client, `The ${store} store`);
  const timeoutMs = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  if (!(Number.isFinite(timeoutMs) && timeoutMs >= 0)) throw new RangeError('queryTimeoutMs must be a number of milliseconds >= 0');
  const report = options.onError ?? logFailure;

  const settleMs = options.settleTimeoutMs ?? DEFAULT_SETTLE_TIMEOUT_MS;
  if (!(Number.isFinite(settleMs) && settleMs >= 0)) throw new RangeError('settleTimeoutMs must be a number of milliseconds >= 0');

  const pool = lendsConnections(client) ? client : undefined;

  return async <Row>(operation: string, text: string, params: unknown[], kind: 'read' | 'write' = 'read'): Promise<Row[]> => {
    try {
      if (kind === 'write' && pool !== undefined) return await writeInTransaction<Row>(pool, text, params, timeoutMs, settleMs);
      const pending = startQuery<Row>(client, store, operation, text, params);
      let result = timeoutMs === 0 ? await pending : await within(pending, timeoutMs);
      if (result === TIMED_OUT && kind === 'write') {
        // The statement may still commit: its outcome, not the clock, decides the answer.
        result = settleMs === 0 ? TIMED_OUT : await within(pending, settleMs);
        if (result === TIMED_OUT) {
          // Still running: if it commits later, nothing in this process will know. Rare by design
          // (a database stalled for longer than both bounds) and said loudly in the log.
          pending.catch(() => undefined);
          throw storeTimeout(`statement still running after ${timeoutMs + settleMs} ms; its outcome is unknown`, 'OUTCOME_UNKNOWN');
        }
      }
      if (result === TIMED_OUT) {
        pending.catch(() => undefined);
        throw storeTimeout(`query timed out after ${timeoutMs} ms`, 'TIMEOUT');
      }
      return result.rows;
    } catch (error) {
      if (error instanceof ContractBroken) throw error.error;
      const failure = { store, operation, ...sanitise(error) };
      // A broken constraint is the caller's conflict, reported by the error it gets; not an outage.
      if (isConstraintViolation(failure.code)) throw onConstraint(operation);
      try {
        report(failure);
      } catch {
        // A failing logger must not replace the store error.
      }
      throw new StoreUnavailableError(store, operation, Object.assign(new Error(failure.message), { code: failure.code }));
    }
  };
}
