import {
  createToken,
  defineController,
  defineFactory,
  defineModule,
  defineProvider,
  get,
  IDEMPOTENCY_STORE,
  InMemoryIdempotencyStore,
  InMemoryRateLimitCounter,
  systemClock,
  type Clock,
  type IdempotencyStore,
  type ModuleDefinition,
  type RateLimitCounter,
} from '../../lib/index.js';
import { InMemoryRefreshTokenStore, smtpMailer, type BrowserSessionOptions, type Mailer } from '../../lib/auth/index.js';
import { accountController, accountSettingsController } from './account-controller.js';
import { browserAuthController } from './browser-auth-controller.js';
import { apiKeysController } from './api-keys-controller.js';
import { authController, sessionsController } from './auth-controller.js';
import { auth, Claims } from './claims.js';
import type { TenantsConfig } from './config.js';
import { DemoAccounts, newAccountClaims } from './demo-accounts.js';
import { tenantPostsController } from './tenant-posts-controller.js';
import { tenantLiveController } from './tenant-live-controller.js';
import { InMemoryTenantPosts, TENANT_POSTS } from './tenant-posts.js';
import { TENANT_KEYS, TenantApiKeys } from './tenant-api-keys.js';
import { ApiKeyRateLimitGuard, RATE_LIMIT_COUNTER } from './rate-limit.js';
import { SIGN_IN_CONTEXT, signInContextReader } from './sign-in-context.js';
import type { TenantsStores } from './postgres/tenants-stores.js';

const CLOCK = createToken<Clock>('CLOCK');

/** The browser-session options, shared with the OpenAPI description (the cookie's name follows them). */
export const TENANTS_BROWSER_SESSIONS: BrowserSessionOptions = Object.freeze({});

/** `GET /me`: the caller's claims. */
export const meController = defineController({
  name: 'MeController',
  routes: () => ({ me: get('/me', { response: Claims }, (ctx) => auth.getCurrentUser(ctx)) }),
});

/**
 * Options of {@link createTenantsModule}.
 *
 * @example
 * const options: TenantsModuleOptions = { stores: (clock) => createPostgresTenantsStores(database, clock, config) };
 */
export interface TenantsModuleOptions {
  readonly clock?: Clock;
  /**
   * Where accounts, refresh tokens, API keys, rate limits, posts and idempotent answers live, built with the app's clock:
   * e.g. `createPostgresTenantsStores` (shared by every instance on the database). Omitted:
   * everything in memory, in this process. A function, so this module never loads the
   * PostgreSQL code unless asked to.
   */
  readonly stores?: (clock: Clock) => TenantsStores;
  /**
   * Counts API-key requests instead of the stores' counter: a `RedisRateLimitCounter` when the
   * app is given `REDIS_URL` (one budget per key across every instance, one round trip each).
   */
  readonly rateLimitCounter?: (clock: Clock) => RateLimitCounter;
  /**
   * Keeps the creates' Idempotency-Key answers instead of the stores' store (the database's, with
   * the posts they protect): for a test, or an app whose writes live elsewhere.
   */
  readonly idempotencyStore?: (clock: Clock) => IdempotencyStore;
  /**
   * Sends the account mails instead of `SMTP_URL`'s transport (or, without it, the log): for a
   * test that collects them.
   */
  readonly mailer?: Mailer;
}

/** Where account mails go: the option, else SMTP_URL through nodemailer, else the log (development). */
function accountMailer(config: TenantsConfig, options: TenantsModuleOptions): Mailer | undefined {
  if (options.mailer !== undefined) return options.mailer;
  if (config.smtpUrl !== undefined) return smtpMailer(config.smtpUrl, config.mailFrom === undefined ? {} : { from: config.mailFrom });
  return undefined;
}

/** The in-memory stores: one process, lost on restart; for tests and demos. */
function createInMemoryTenantsStores(ClockModule: ModuleDefinition, config: TenantsConfig): TenantsStores {
  const module = defineModule({
    name: 'InMemoryStoresModule',
    imports: [ClockModule],
    providers: [
      // One key store shared by the auth module (verification) and the key routes (management).
      defineFactory(TenantApiKeys, [CLOCK], (c) => new TenantApiKeys().useClock(c)),
      { provide: TENANT_KEYS, useExisting: TenantApiKeys },
      defineFactory(RATE_LIMIT_COUNTER, [CLOCK], (clock) => new InMemoryRateLimitCounter({ limit: config.apiKeyRateLimit, windowMs: config.apiKeyRateWindowMs, clock })),
      defineFactory(TENANT_POSTS, [CLOCK], (c) => new InMemoryTenantPosts(c)),
      defineFactory(IDEMPOTENCY_STORE, [CLOCK], (c) => new InMemoryIdempotencyStore({ clock: c })),
    ],
    exports: [TENANT_KEYS, RATE_LIMIT_COUNTER, TENANT_POSTS, IDEMPOTENCY_STORE],
  });
  // The refresh-token store stamps rotations with the same clock the auth module reads.
  return { module, accountStore: DemoAccounts, refreshTokenStore: defineProvider(InMemoryRefreshTokenStore, [CLOCK]) };
}

/**
 * The multi-tenant reference app: every route needs a credential (protectAllRoutes) except the
 * public auth routes. State lives in memory unless `options.stores` says otherwise.
 *
 * @example
 * const app = await createApp(createTenantsModule(readTenantsConfig(process.env)));
 */
export function createTenantsModule(config: TenantsConfig, options: TenantsModuleOptions = {}) {
  const clock = options.clock ?? systemClock;
  const ClockModule = defineModule({ name: 'ClockModule', providers: [{ provide: CLOCK, useValue: clock }], exports: [CLOCK] });
  const stores = options.stores === undefined ? createInMemoryTenantsStores(ClockModule, config) : options.stores(clock);
  const mailer = accountMailer(config, options);
  const signInCounters = stores.signInCounters;
  return defineModule({
    name: 'TenantsModule',
    imports: [
      ClockModule,
      stores.module,
      auth.AuthModule.forRoot({
        secret: config.secret,
        algorithm: 'HS256',
        issuer: config.issuer,
        audience: config.audience,
        protectAllRoutes: true,
        clock,
        clockToleranceSeconds: config.clockToleranceSeconds,
        trustedIssuers: config.identityProvider === undefined ? [] : [{ ...config.identityProvider }],
        issuing: {
          refreshTokenStore: stores.refreshTokenStore,
          imports: [ClockModule, stores.module],
          refreshReuseGraceSeconds: config.refreshReuseGraceSeconds,
          sessionMaxAge: config.sessionMaxAgeSeconds,
        },
        // No issuing.credentialStore: sign-in reads the account store, so sign-up's accounts sign in once verified.
        accounts: {
          store: stores.accountStore,
          imports: [stores.module],
          links: config.appUrl,
          appName: 'Tessera tenants',
          newAccountClaims,
          ...(mailer === undefined ? {} : { mailer }),
          ...(stores.mailLimit === undefined ? {} : { mailLimit: stores.mailLimit }),
        },
        // Failed sign-ins counted per account and address: in the stores' shared counters (the
        // database, beside the accounts), else in this process.
        ...(signInCounters === undefined ? {} : { signInThrottle: { counters: signInCounters, imports: [stores.module] } }),
        // Browser sessions: the tokens in __Host- cookies (HttpOnly, Secure, SameSite=Strict), a
        // CSRF token on every cookie-authenticated unsafe request; the guards accept either.
        // The client address a browser session keeps and throttling counts is ctx.clientAddress:
        // the app's one proxy rule (createApp's clientAddress, see main.ts), as for the keys.
        browser: TENANTS_BROWSER_SESSIONS,
        apiKeys: {
          store: { useExisting: TENANT_KEYS },
          imports: [stores.module],
          cacheSeconds: config.apiKeyCacheSeconds,
        },
      }),
    ],
    // The module's own counter and idempotency store, when given, win over those its stores export (own providers first).
    providers: [
      defineProvider(ApiKeyRateLimitGuard, [RATE_LIMIT_COUNTER]),
      { provide: SIGN_IN_CONTEXT, useValue: signInContextReader() },
      ...(options.rateLimitCounter === undefined ? [] : [defineFactory(RATE_LIMIT_COUNTER, [CLOCK], options.rateLimitCounter)]),
      ...(options.idempotencyStore === undefined ? [] : [defineFactory(IDEMPOTENCY_STORE, [CLOCK], options.idempotencyStore)]),
    ],
    // Runs after the auth module's guard (modules' app guards run in import order), so only verified keys are counted.
    appGuards: [ApiKeyRateLimitGuard],
    controllers: [authController, browserAuthController, accountController, accountSettingsController, sessionsController, meController, tenantPostsController, tenantLiveController, apiKeysController],
  });
}
