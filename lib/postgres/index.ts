// The PostgreSQL entry point, `tessera-http/postgres`: what any app on PostgreSQL uses beside the
// auth stores (which live in `tessera-http/auth/postgres`): the query runner that bounds and
// reports every statement, Tessera's migrations, a readiness check, the LISTEN/NOTIFY PubSub and
// the rate-limit counter. It imports no database driver: give it anything with a
// `query(text, params)` (pg's Pool, PGlite). Explicit named exports only.
export type { SqlClient, SqlResult } from './sql-client.js';
export { SQL_CLIENT } from './sql-client.js';
export type { PooledSqlConnection, SqlPool } from './sql-pool.js';
export { lendsConnections } from './sql-pool.js';
export { migrate } from './migrate.js';
export type { MigrationResult } from './migrate.js';
export { MIGRATIONS } from './migrations.js';
export type { Migration } from './migrations.js';
export { DEFAULT_QUERY_TIMEOUT_MS, DEFAULT_SETTLE_TIMEOUT_MS, createQueryRunner } from './run-query.js';
export type { PostgresStoreOptions, StoreFailure, QueryRunner } from './run-query.js';
export { StoreUnavailableError } from './store-unavailable-error.js';
export { postgresHealthCheck } from './postgres-health-check.js';
export { PostgresRateLimitCounter } from './postgres-rate-limit-counter.js';
export type { PostgresRateLimitCounterOptions } from './postgres-rate-limit-counter.js';
export { postgresPubSub } from './postgres-pub-sub.js';
export type { PostgresPubSubOptions, ListenConnection } from './postgres-pub-sub.js';
export { PostgresIdempotencyStore } from './postgres-idempotency-store.js';
export type { PostgresIdempotencyStoreOptions } from './postgres-idempotency-store.js';
