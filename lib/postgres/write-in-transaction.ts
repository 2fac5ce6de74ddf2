import { TIMED_OUT, within } from '../internal/engines.js';
import type { SqlResult } from './sql-client.js';
import type { PooledSqlConnection, SqlPool } from './sql-pool.js';

/**
 * An error the query runner reports as it would a driver's: `code` is what `onError` sees.
 * TIMEOUT: nothing was committed; OUTCOME_UNKNOWN: COMMIT was sent and its outcome is not known.
 */
export function storeTimeout(message: string, code: 'TIMEOUT' | 'OUTCOME_UNKNOWN' | 'ROLLED_BACK'): Error {
  return Object.assign(new Error(message), { code });
}

/** `within`, where Infinity (no bound) waits as long as it takes: a timer cannot hold Infinity. */
function bounded<T>(pending: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  return ms === Number.POSITIVE_INFINITY ? pending : within(pending, Math.max(0, ms));
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * A connection's server answered with an error (pg and PGlite give it a `severity`): the session
 * lives on in an aborted transaction, so a ROLLBACK makes it reusable. Anything else (a dropped
 * socket, a driver's own timeout) leaves the connection's state unknown: it is closed.
 */
function answeredByServer(error: unknown): boolean {
  const fields = error as { code?: unknown; severity?: unknown } | null;
  return typeof fields?.code === 'string' && typeof fields.severity === 'string';
}

/** One lent connection, given back exactly once (pg's pool throws on a second release). */
class Lease {
  #released = false;
  #broken = false;
  readonly #forget: () => void;

  constructor(readonly connection: PooledSqlConnection) {
    // pg emits a dropped socket as an 'error' event when no query is waiting for it; unheard, that
    // event ends the process. Heard, it marks the connection for closing.
    const events = connection as Partial<Record<'on' | 'removeListener', (event: string, listener: () => void) => unknown>>;
    const onError = () => (this.#broken = true);
    events.on?.call(connection, 'error', onError);
    this.#forget = () => events.removeListener?.call(connection, 'error', onError);
  }

  release(destroy: boolean): void {
    if (this.#released) return;
    this.#released = true;
    this.#forget();
    this.connection.release(destroy || this.#broken);
  }

  /** After a server error: ROLLBACK in the background (the caller's answer is known already), then give it back. */
  rollBackAndRelease(ms: number): void {
    // A ROLLBACK that does not answer in time leaves the connection busy: close it instead.
    void bounded(this.connection.query('ROLLBACK'), ms).then(
      (answer) => this.release(answer === TIMED_OUT),
      () => this.release(true),
    );
  }
}

/** The transaction id from the opening query's last result (pg answers a multi-statement string with one result each). */
function transactionId(opened: SqlResult<{ xid?: unknown }> | SqlResult<{ xid?: unknown }>[]): string | undefined {
  const last = Array.isArray(opened) ? opened[opened.length - 1] : opened;
  const xid = last?.rows[0]?.xid;
  return typeof xid === 'string' || typeof xid === 'number' || typeof xid === 'bigint' ? String(xid) : undefined;
}

/**
 * COMMIT was sent but its answer was lost (the socket dropped, or a driver timeout such as pg's
 * `query_timeout` gave up on it): the server still knows. `txid_status` says 'committed' or
 * 'aborted' once the transaction has ended, 'in progress' while the server has not got to it.
 */
async function commitOutcome(pool: SqlPool, xid: string, until: number): Promise<'committed' | 'aborted' | undefined> {
  for (;;) {
    const left = until - performance.now();
    if (left <= 0) return undefined;
    const answer = await bounded(
      pool.query<{ status: string | null }>('SELECT txid_status($1::bigint) AS status', [xid]).catch(() => undefined),
      left,
    );
    const status = answer === TIMED_OUT ? undefined : answer?.rows[0]?.status;
    if (status === 'committed' || status === 'aborted') return status;
    await pause(Math.min(50, Math.max(0, until - performance.now())));
  }
}

/**
 * Runs one state-changing statement so that a timeout never hides a commit: on a connection lent
 * by `pool`, `BEGIN; SET LOCAL statement_timeout` (and the transaction id) in one round trip, then
 * the statement, then COMMIT, which is sent only if the statement answered within `timeoutMs`.
 * Otherwise the connection is closed with the transaction open, so the server rolls it back
 * whenever it gets to it (even a server that was stopped and resumes with the statement still
 * unread in its socket), and the caller's 503 is true. Once COMMIT is sent, its answer is awaited
 * up to `settleMs` past `timeoutMs`; if that answer is lost, the server is asked for the outcome.
 *
 * @example
 * const rows = await writeInTransaction<{ one: number }>(pool, 'UPDATE t SET x = 1 RETURNING 1 AS one', [], 2_000, 30_000);
 */
export async function writeInTransaction<Row>(pool: SqlPool, text: string, params: unknown[], timeoutMs: number, settleMs: number): Promise<Row[]> {
  const bound = timeoutMs === 0 ? Number.POSITIVE_INFINITY : timeoutMs;
  const deadline = performance.now() + bound;
  const left = () => deadline - performance.now();

  const lending = pool.connect();
  const lent = await bounded(lending, left());
  if (lent === TIMED_OUT) {
    lending.then((connection) => connection.release(), () => undefined);
    throw storeTimeout(`no connection within ${timeoutMs} ms; nothing was sent`, 'TIMEOUT');
  }
  const lease = new Lease(lent);
  // A driver that throws instead of rejecting must still give the connection back.
  const send = <R>(query: string, values?: unknown[]): Promise<SqlResult<R>> => {
    try {
      const pending = lent.query<R>(query, values);
      pending.catch(() => undefined);
      return pending;
    } catch (error) {
      return Promise.reject(error);
    }
  };

  // Closes the connection with the transaction open: nothing was committed, nor can be.
  const abandon = (what: string): never => {
    lease.release(true);
    throw storeTimeout(`${what} not answered within ${timeoutMs} ms; the transaction was abandoned uncommitted`, 'TIMEOUT');
  };
  const failed = (error: unknown): never => {
    if (answeredByServer(error)) lease.rollBackAndRelease(bound);
    else lease.release(true);
    throw error;
  };

  // The server's own bound, a little inside the caller's: a statement stuck on a lock is then
  // cancelled by the server (a clean error, the connection kept) before the client gives up on it.
  const serverBound = bound === Number.POSITIVE_INFINITY ? '' : ` SET LOCAL statement_timeout = ${Math.max(1, Math.floor(left() * 0.9))};`;
  const opening = send<{ xid?: unknown }>(`BEGIN;${serverBound} SELECT txid_current()::text AS xid`);
  const opened = await bounded(opening, left()).catch(failed);
  if (opened === TIMED_OUT) return abandon('BEGIN');
  const xid = transactionId(opened);

  const statement = send<Row>(text, params);
  const result = await bounded(statement, left()).catch(failed);
  if (result === TIMED_OUT) return abandon('the statement');

  // From here the outcome is the server's: wait for it, never guess it.
  const until = deadline + settleMs;
  const committing = send('COMMIT');
  let lost: unknown;
  const committed = await bounded(committing, until - performance.now()).catch((error: unknown) => {
    if (answeredByServer(error)) failed(error); // a deferred check or a serialisation failure: rolled back
    lost = error;
    return undefined;
  });
  if (committed !== undefined && committed !== TIMED_OUT) {
    lease.release(false);
    return result.rows;
  }
  lease.release(true);
  const outcome = lost === undefined || xid === undefined ? undefined : await commitOutcome(pool, xid, until);
  if (outcome === 'committed') return result.rows;
  if (outcome === 'aborted') throw storeTimeout('COMMIT was not answered; the server rolled the transaction back', 'ROLLED_BACK');
  throw storeTimeout(`COMMIT sent but not answered within ${timeoutMs + settleMs} ms; its outcome is unknown`, 'OUTCOME_UNKNOWN');
}
