// The PostgreSQL stores entry point, `tessera-http/auth/postgres`. Explicit named exports only. It
// imports no database driver: give it anything with a `query(text, params)` (pg's Pool, PGlite).
export type { SqlClient, SqlResult } from './sql-client.js';
export { SQL_CLIENT } from './sql-client.js';
export { migrate } from './migrate.js';
export type { MigrationResult } from './migrate.js';
export { MIGRATIONS } from './migrations.js';
export type { Migration } from './migrations.js';
export { DEFAULT_QUERY_TIMEOUT_MS, DEFAULT_SETTLE_TIMEOUT_MS, createQueryRunner } from './run-query.js';
export type { PostgresStoreOptions, StoreFailure, QueryRunner } from './run-query.js';
export { StoreUnavailableError } from './store-unavailable-error.js';
export { postgresHealthCheck } from './postgres-health-check.js';
export { PostgresCredentialStore } from './postgres-credential-store.js';
export type { PostgresAccount } from './postgres-credential-store.js';
export { PostgresRefreshTokenStore } from './postgres-refresh-token-store.js';
export type { PostgresRefreshTokenStoreOptions } from './postgres-refresh-token-store.js';
export { PostgresApiKeyStore } from './postgres-api-key-store.js';
export type { NewPostgresApiKey, StoredApiKey } from './postgres-api-key-store.js';
// The counter contract lives in the core (RedisRateLimitCounter implements it too); named here as before.
export type { RateLimitCounter, RateLimitWindow } from '../../index.js';
export { PostgresRateLimitCounter } from './postgres-rate-limit-counter.js';
export type { PostgresRateLimitCounterOptions } from './postgres-rate-limit-counter.js';
export { postgresPubSub } from './postgres-pub-sub.js';
export type { PostgresPubSubOptions, ListenConnection } from './postgres-pub-sub.js';
