// The PostgreSQL auth stores entry point, `tessera-http/auth/postgres`: the credential,
// refresh-token and API-key stores on Tessera's tables. What they share with any PostgreSQL app
// (the `SqlClient` they take, the query runner, `migrate`, the pub/sub and the counter) is in
// `tessera-http/postgres`. Explicit named exports only.
export { PostgresCredentialStore } from './postgres-credential-store.js';
export type { PostgresAccount } from './postgres-credential-store.js';
export { PostgresRefreshTokenStore } from './postgres-refresh-token-store.js';
export type { PostgresRefreshTokenStoreOptions } from './postgres-refresh-token-store.js';
export { PostgresApiKeyStore } from './postgres-api-key-store.js';
export type { NewPostgresApiKey, StoredApiKey } from './postgres-api-key-store.js';
export { PostgresAccountStore } from './postgres-account-store.js';
export { PostgresSecondFactorStore } from './postgres-second-factor-store.js';
export { PostgresIdentityStore } from './postgres-identity-store.js';
export { PostgresSignInFlowStore } from './postgres-sign-in-flow-store.js';
// Deprecated: the names that moved to tessera-http/postgres (and the counter's types to tessera-http)
// in 0.2, under their old import until 0.3.
export {
  SQL_CLIENT,
  migrate,
  postgresHealthCheck,
  MIGRATIONS,
  DEFAULT_QUERY_TIMEOUT_MS,
  DEFAULT_SETTLE_TIMEOUT_MS,
  createQueryRunner,
  postgresPubSub,
  StoreUnavailableError,
  PostgresRateLimitCounter,
} from './moved-to-postgres.js';
export type {
  SqlClient,
  SqlResult,
  MigrationResult,
  Migration,
  PostgresStoreOptions,
  StoreFailure,
  QueryRunner,
  PostgresRateLimitCounterOptions,
  PostgresPubSubOptions,
  ListenConnection,
  RateLimitCounter,
  RateLimitWindow,
} from './moved-to-postgres.js';
