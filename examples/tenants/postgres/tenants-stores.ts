import { createToken, defineFactory, defineModule, IDEMPOTENCY_STORE } from '../../../lib/index.js';
import type { Clock, ModuleDefinition } from '../../../lib/index.js';
import type { AccountStore, IdentityStore, RefreshTokenStore, SecondFactorStore, SignInFlowStore, StoreClass } from '../../../lib/auth/index.js';
import type { InjectionToken, RateLimitCounter, RateLimitCounterOptions, WindowedRateLimitCounter } from '../../../lib/index.js';
import { PostgresAccountStore, PostgresIdentityStore, PostgresRefreshTokenStore, PostgresSecondFactorStore, PostgresSignInFlowStore } from '../../../lib/auth/postgres/index.js';
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
import { PURGE_WORK } from '../purge-job.js';

/**
 * The state the tenants app keeps, however it is stored: a module exporting `TENANT_KEYS`,
 * `RATE_LIMIT_COUNTER`, `TENANT_POSTS`, `IDEMPOTENCY_STORE` and `PURGE_WORK` (the scheduled purge), and the auth module's stores as it
 * takes them: the refresh tokens, and the accounts (an account store, which sign-in reads too), and
 * optionally the sign-in throttle's counters.
 *
 * @example
 * const stores: TenantsStores = createPostgresTenantsStores(database, clock, config);
 */
export interface TenantsStores {
  readonly module: ModuleDefinition;
  readonly accountStore: StoreClass<AccountStore<Claims>>;
  readonly refreshTokenStore: StoreClass<RefreshTokenStore>;
  /** TOTP enrolments, recovery codes, passkeys, challenges, pending sign-ins and step-ups. */
  readonly secondFactorStore: StoreClass<SecondFactorStore>;
  /**
   * The counters of sign-in throttling, shared by every instance on the same storage; omitted:
   * the auth module's in-memory counters (one process).
   */
  readonly signInCounters?: SignInCounters;
  /** Counts the account mails anyone can cause, per address, for every instance; omitted: in this process. */
  readonly mailLimit?: RateLimitCounter;
  /** Where outside sign-ins wait for their callback and provider identities are linked; omitted: in this process. */
  readonly outsideSignIn?: { readonly flowStore: StoreClass<SignInFlowStore>; readonly identityStore: StoreClass<IdentityStore> };
}

/** What a counter of sign-in throttling is built with (the auth module names each tier's). */
export type SignInCounterSettings = RateLimitCounterOptions & { readonly name: string };

/**
 * The sign-in throttle's counters, as `signInThrottle.counters` takes them: a function, or one
 * built from providers of the stores' module.
 *
 * @example
 * const counters: SignInCounters = (options) => new RedisRateLimitCounter(redis, options);
 */
export type SignInCounters =
  | ((options: SignInCounterSettings) => WindowedRateLimitCounter)
  | { readonly inject: readonly InjectionToken<unknown>[]; readonly useFactory: (...deps: never[]) => (options: SignInCounterSettings) => WindowedRateLimitCounter };

const ACCOUNTS = createToken<AccountStore<Claims>>('TenantsAccountStore');
const REFRESH_TOKENS = createToken<RefreshTokenStore>('TenantsRefreshTokenStore');
const SECOND_FACTORS = createToken<SecondFactorStore>('TenantsSecondFactorStore');
const SIGN_IN_FLOWS = createToken<SignInFlowStore>('TenantsSignInFlowStore');
const IDENTITIES = createToken<IdentityStore>('TenantsIdentityStore');

/**
 * Accounts (with their mail tokens), refresh tokens, API keys, the per-key rate limit, the
 * sign-in throttle's counts, the posts and the creates' idempotent answers in PostgreSQL, so every
 * instance on the database sees the same accounts, sessions, revocations, counts, posts and replays. The database is registered as
 * a provider (through a factory, so its `onApplicationShutdown` closes it with the app).
 *
 * @example
 * const stores = createPostgresTenantsStores(database, systemClock, config, { queryTimeoutMs: 2000 });
 */
export function createPostgresTenantsStores(database: SqlClient, clock: Clock, config: TenantsConfig, options: PostgresStoreOptions = {}): TenantsStores {
  // At most 5 verification, reset and change mails per address per hour, across instances.
  const mailLimit = new PostgresRateLimitCounter(database, { ...options, clock, name: 'tenants-account-mails', limit: 5, windowMs: 3_600_000 });
  // The counters the auth module makes through signInCounters below (the sign-in throttle's tiers,
  // sign-in-*, and the account routes' budgets, account-*), kept so the purge sweeps their ended windows.
  const throttleCounters: PostgresRateLimitCounter[] = [];
  const module = defineModule({
    name: 'PostgresStoresModule',
    providers: [
      defineFactory(SQL_CLIENT, [], () => database),
      defineFactory(ACCOUNTS, [SQL_CLIENT], (db) => new PostgresDemoAccounts(db, options)),
      defineFactory(REFRESH_TOKENS, [SQL_CLIENT], (db) => new PostgresRefreshTokenStore(db, { ...options, clock })),
      defineFactory(SECOND_FACTORS, [SQL_CLIENT], (db) => new PostgresSecondFactorStore(db, options)),
      defineFactory(TENANT_KEYS, [SQL_CLIENT], (db) => new PostgresTenantApiKeys(db, clock, options)),
      defineFactory(
        RATE_LIMIT_COUNTER,
        [SQL_CLIENT],
        (db) => new PostgresRateLimitCounter(db, { ...options, clock, name: 'tenants-api-keys', limit: config.apiKeyRateLimit, windowMs: config.apiKeyRateWindowMs }),
      ),
      defineFactory(TENANT_POSTS, [SQL_CLIENT], (db) => new PostgresTenantPosts(db, clock, options)),
      defineFactory(IDEMPOTENCY_STORE, [SQL_CLIENT], (db) => new PostgresIdempotencyStore(db, { ...options, clock })),
      defineFactory(SIGN_IN_FLOWS, [SQL_CLIENT], (db) => new PostgresSignInFlowStore(db, options)),
      defineFactory(IDENTITIES, [SQL_CLIENT], (db) => new PostgresIdentityStore(db, options)),
      // The scheduled purge (purge-job.ts): expired mail tokens, second-factor challenges and pending
      // second-factor sign-ins, outside sign-in flows; ended windows of the API-key and mail limits
      // and of the auth module's throttles.
      defineFactory(PURGE_WORK, [ACCOUNTS, RATE_LIMIT_COUNTER, SECOND_FACTORS, SIGN_IN_FLOWS], (accounts, apiKeys, factors, flows) => async () => {
        const now = new Date(clock.now());
        let throttleWindows = 0;
        for (const counter of throttleCounters) throttleWindows += await counter.sweep();
        return {
          mailTokens: accounts instanceof PostgresAccountStore ? await accounts.purgeExpiredTokens(now) : 0,
          secondFactors: factors instanceof PostgresSecondFactorStore ? await factors.purgeExpired(now) : 0,
          signInFlows: flows instanceof PostgresSignInFlowStore ? await flows.purgeExpired(now) : 0,
          apiKeyWindows: apiKeys instanceof PostgresRateLimitCounter ? await apiKeys.sweep() : 0,
          mailWindows: await mailLimit.sweep(),
          throttleWindows,
        };
      }),
    ],
    exports: [SQL_CLIENT, ACCOUNTS, REFRESH_TOKENS, SECOND_FACTORS, TENANT_KEYS, RATE_LIMIT_COUNTER, TENANT_POSTS, IDEMPOTENCY_STORE, SIGN_IN_FLOWS, IDENTITIES, PURGE_WORK],
  });
  return {
    module,
    accountStore: { useExisting: ACCOUNTS },
    refreshTokenStore: { useExisting: REFRESH_TOKENS },
    secondFactorStore: { useExisting: SECOND_FACTORS },
    // Failed sign-ins counted in tessera_rate_limits, so every instance sees the same counts.
    signInCounters: {
      inject: [SQL_CLIENT],
      useFactory: (db: SqlClient) => (settings: SignInCounterSettings) => {
        const counter = new PostgresRateLimitCounter(db, { ...options, ...settings });
        throttleCounters.push(counter);
        return counter;
      },
    },
    mailLimit,
    // Outside sign-ins: a callback finds its flow on any instance, and links are shared.
    outsideSignIn: { flowStore: { useExisting: SIGN_IN_FLOWS }, identityStore: { useExisting: IDENTITIES } },
  };
}
