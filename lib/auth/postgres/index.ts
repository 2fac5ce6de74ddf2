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
