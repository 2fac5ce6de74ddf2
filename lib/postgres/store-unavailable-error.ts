import { ServiceUnavailableException } from '../index.js';

/**
 * Thrown by the PostgreSQL stores when the database cannot answer (connection refused or lost,
 * a timeout, a missing table, any server error other than a broken constraint). It is a 503
 * `ServiceUnavailableException`, so sign-in, refresh and sign-out surface as 503 problem+json
 * instead of a bare 500, and the API-key guard (which maps any store throw to 503) is unchanged.
 *
 * A wiring mistake is never this error: a client that is not a `SqlClient` fails the store's
 * construction (at boot, through DI) with a TypeError naming the store and what is missing, and
 * a `query` that throws or answers no promise is a TypeError (500), not an outage.
 *
 * The message names only the store and the operation. `cause` is a sanitised copy of the driver
 * error: its SQLSTATE `code` and `message`, never the statement's parameters or the server's
 * `detail` (which can quote row values such as a token hash or a password hash).
 *
 * @example
 * try { await store.find(hash); } catch (error) { if (error instanceof StoreUnavailableError) retryLater(); }
 */
export class StoreUnavailableError extends ServiceUnavailableException {
  /** The store that failed, e.g. `refresh-token`. */
  readonly store: string;
  /** The operation that failed, e.g. `rotate`. */
  readonly operation: string;

  constructor(store: string, operation: string, cause?: Error) {
    super(`The ${store} store is unavailable`);
    this.store = store;
    this.operation = operation;
    if (cause !== undefined) this.cause = cause;
  }
}
