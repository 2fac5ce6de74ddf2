import { createToken, defineFactory, defineModule, IDEMPOTENCY_STORE } from '../../../lib/index.js';
import type { Clock, ModuleDefinition } from '../../../lib/index.js';
import type { AccountStore, CredentialStore, RefreshTokenStore, StoreClass } from '../../../lib/auth/index.js';
import { PostgresRefreshTokenStore } from '../../../lib/auth/postgres/index.js';
import { PostgresIdempotencyStore, PostgresRateLimitCounter, SQL_CLIENT } from '../../../lib/postgres/index.js';
import type { PostgresStoreOptions, SqlClient } from '../../../lib/postgres/index.js';
import type { Claims } from '../claims.js';
import type { TenantsConfig } from '../config.js';
import { RATE_LIMIT_COUNTER } from '../rate-limit.js';
import { TENANT_KEYS } from '../tenant-api-keys.js';
import { TENANT_POSTS } from '../tenant-posts.js';
import { PostgresDemoAccounts } from './postgres-demo-accounts.js';
import { PostgresTenantApiKeys } from './postgres-tenant-api-keys.js';
import { PostgresTenantPosts } from './postgres-tenant-posts.js';

/**
 * The state the tenants app keeps, however it is stored: a module exporting `TENANT_KEYS`,
 * `RATE_LIMIT_COUNTER`, `TENANT_POSTS` and `IDEMPOTENCY_STORE`, and the auth module's stores as it
 * takes them: the refresh tokens, and the accounts (an account store, which sign-in reads too, for
 * sign-up, verification and reset; or only a credential store, for sign-in alone).
 *
 * @example
 * const stores: TenantsStores = createPostgresTenantsStores(database, clock, config);
 */
export interface TenantsStores {
  readonly module: ModuleDefinition;
  readonly accountStore?: StoreClass<AccountStore<Claims>>;
  readonly credentialStore?: StoreClass<CredentialStore<Claims>>;
  readonly refreshTokenStore: StoreClass<RefreshTokenStore>;
}

const CREDENTIALS = createToken<CredentialStore<Claims>>('TenantsCredentialStore');
const REFRESH_TOKENS = createToken<RefreshTokenStore>('TenantsRefreshTokenStore');

/**
 * Accounts, refresh tokens, API keys, the per-key rate limit, the posts and the creates' idempotent
 * answers in PostgreSQL, so every instance on the database sees the same sessions, revocations,
 * counts, posts and replays. The database is registered as
 * a provider (through a factory, so its `onApplicationShutdown` closes it with the app).
 *
 * @example
 * const stores = createPostgresTenantsStores(database, systemClock, config, { queryTimeoutMs: 2000 });
 */
export function createPostgresTenantsStores(database: SqlClient, clock: Clock, config: TenantsConfig, options: PostgresStoreOptions = {}): TenantsStores {
  const module = defineModule({
    name: 'PostgresStoresModule',
    providers: [
      defineFactory(SQL_CLIENT, [], () => database),
      defineFactory(CREDENTIALS, [SQL_CLIENT], (db) => new PostgresDemoAccounts(db, options)),
      defineFactory(REFRESH_TOKENS, [SQL_CLIENT], (db) => new PostgresRefreshTokenStore(db, { ...options, clock })),
      defineFactory(TENANT_KEYS, [SQL_CLIENT], (db) => new PostgresTenantApiKeys(db, clock, options)),
      defineFactory(
        RATE_LIMIT_COUNTER,
        [SQL_CLIENT],
        (db) => new PostgresRateLimitCounter(db, { ...options, clock, name: 'tenants-api-keys', limit: config.apiKeyRateLimit, windowMs: config.apiKeyRateWindowMs }),
      ),
      defineFactory(TENANT_POSTS, [SQL_CLIENT], (db) => new PostgresTenantPosts(db, clock, options)),
      defineFactory(IDEMPOTENCY_STORE, [SQL_CLIENT], (db) => new PostgresIdempotencyStore(db, { ...options, clock })),
    ],
    exports: [CREDENTIALS, REFRESH_TOKENS, TENANT_KEYS, RATE_LIMIT_COUNTER, TENANT_POSTS, IDEMPOTENCY_STORE],
  });
  return { module, credentialStore: { useExisting: CREDENTIALS }, refreshTokenStore: { useExisting: REFRESH_TOKENS } };
}
