// What tessera-http/auth/postgres exported until the entry tessera-http/postgres took the pieces
// any PostgreSQL app shares (fe064aa), kept under the old import for one minor version so that an
// app written against 0.1 compiles and runs unchanged (issue 47). Each is the same binding as the
// new one (same function, same class, same token), so mixing old and new imports is safe.
// Removed in 0.3; CHANGELOG.md names the new import of each.
import {
  DEFAULT_QUERY_TIMEOUT_MS as defaultQueryTimeoutMs,
  DEFAULT_SETTLE_TIMEOUT_MS as defaultSettleTimeoutMs,
  MIGRATIONS as migrations,
  PostgresRateLimitCounter as PostgresRateLimitCounterClass,
  SQL_CLIENT as sqlClient,
  StoreUnavailableError as StoreUnavailableErrorClass,
  createQueryRunner as createQueryRunnerNow,
  migrate as migrateNow,
  postgresHealthCheck as postgresHealthCheckNow,
  postgresPubSub as postgresPubSubNow,
} from '../../postgres/index.js';
import type * as postgres from '../../postgres/index.js';
import type * as core from '../../index.js';

/**
 * @deprecated moved to tessera-http/postgres; import SQL_CLIENT from there. Removed in 0.3.
 * @example
 * import { SQL_CLIENT } from 'tessera-http/postgres';
 */
export const SQL_CLIENT = sqlClient;
/**
 * @deprecated moved to tessera-http/postgres; import migrate from there. Removed in 0.3.
 * @example
 * import { migrate } from 'tessera-http/postgres';
 * await migrate(pool);
 */
export const migrate = migrateNow;
/**
 * @deprecated moved to tessera-http/postgres; import postgresHealthCheck from there. Removed in 0.3.
 * @example
 * import { postgresHealthCheck } from 'tessera-http/postgres';
 */
export const postgresHealthCheck = postgresHealthCheckNow;
/**
 * @deprecated moved to tessera-http/postgres; import MIGRATIONS from there. Removed in 0.3.
 * @example
 * import { MIGRATIONS } from 'tessera-http/postgres';
 */
export const MIGRATIONS = migrations;
/**
 * @deprecated moved to tessera-http/postgres; import DEFAULT_QUERY_TIMEOUT_MS from there. Removed in 0.3.
 * @example
 * import { DEFAULT_QUERY_TIMEOUT_MS } from 'tessera-http/postgres';
 */
export const DEFAULT_QUERY_TIMEOUT_MS = defaultQueryTimeoutMs;
/**
 * @deprecated moved to tessera-http/postgres; import DEFAULT_SETTLE_TIMEOUT_MS from there. Removed in 0.3.
 * @example
 * import { DEFAULT_SETTLE_TIMEOUT_MS } from 'tessera-http/postgres';
 */
export const DEFAULT_SETTLE_TIMEOUT_MS = defaultSettleTimeoutMs;
/**
 * @deprecated moved to tessera-http/postgres; import createQueryRunner from there. Removed in 0.3.
 * @example
 * import { createQueryRunner } from 'tessera-http/postgres';
 */
export const createQueryRunner = createQueryRunnerNow;
/**
 * @deprecated moved to tessera-http/postgres; import postgresPubSub from there. Removed in 0.3.
 * @example
 * import { postgresPubSub } from 'tessera-http/postgres';
 */
export const postgresPubSub = postgresPubSubNow;
/**
 * @deprecated moved to tessera-http/postgres; import StoreUnavailableError from there. Removed in 0.3.
 * @example
 * import { StoreUnavailableError } from 'tessera-http/postgres';
 */
export const StoreUnavailableError = StoreUnavailableErrorClass;
/** @deprecated moved to tessera-http/postgres; import StoreUnavailableError from there. Removed in 0.3. */
export type StoreUnavailableError = StoreUnavailableErrorClass;
/**
 * @deprecated moved to tessera-http/postgres; import PostgresRateLimitCounter from there. Removed in 0.3.
 * @example
 * import { PostgresRateLimitCounter } from 'tessera-http/postgres';
 */
export const PostgresRateLimitCounter = PostgresRateLimitCounterClass;
/** @deprecated moved to tessera-http/postgres; import PostgresRateLimitCounter from there. Removed in 0.3. */
export type PostgresRateLimitCounter = PostgresRateLimitCounterClass;

/** @deprecated moved to tessera-http/postgres; import type SqlClient from there. Removed in 0.3. */
export type SqlClient = postgres.SqlClient;
/** @deprecated moved to tessera-http/postgres; import type SqlResult from there. Removed in 0.3. */
export type SqlResult<Row> = postgres.SqlResult<Row>;
/** @deprecated moved to tessera-http/postgres; import type MigrationResult from there. Removed in 0.3. */
export type MigrationResult = postgres.MigrationResult;
/** @deprecated moved to tessera-http/postgres; import type Migration from there. Removed in 0.3. */
export type Migration = postgres.Migration;
/** @deprecated moved to tessera-http/postgres; import type PostgresStoreOptions from there. Removed in 0.3. */
export type PostgresStoreOptions = postgres.PostgresStoreOptions;
/** @deprecated moved to tessera-http/postgres; import type StoreFailure from there. Removed in 0.3. */
export type StoreFailure = postgres.StoreFailure;
/** @deprecated moved to tessera-http/postgres; import type QueryRunner from there. Removed in 0.3. */
export type QueryRunner = postgres.QueryRunner;
/** @deprecated moved to tessera-http/postgres; import type PostgresRateLimitCounterOptions from there. Removed in 0.3. */
export type PostgresRateLimitCounterOptions = postgres.PostgresRateLimitCounterOptions;
/** @deprecated moved to tessera-http/postgres; import type PostgresPubSubOptions from there. Removed in 0.3. */
export type PostgresPubSubOptions = postgres.PostgresPubSubOptions;
/** @deprecated moved to tessera-http/postgres; import type ListenConnection from there. Removed in 0.3. */
export type ListenConnection = postgres.ListenConnection;
/** @deprecated moved to tessera-http; import type RateLimitCounter from 'tessera-http'. Removed in 0.3. */
export type RateLimitCounter = core.RateLimitCounter;
/** @deprecated moved to tessera-http; import type RateLimitWindow from 'tessera-http'. Removed in 0.3. */
export type RateLimitWindow = core.RateLimitWindow;
