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
  type ProviderInput,
  type RateLimitCounter,
} from '../../lib/index.js';
import { accountMailJobs, InMemoryRefreshTokenStore, InMemorySecondFactorStore, mailJobs, secondFactorControllers, smtpMailer, type AccountMailQueue, type AuthRouteOptions, type BrowserSessionOptions, type Mailer } from '../../lib/auth/index.js';
import { JobsModule, type JobEngine } from '../../lib/jobs/index.js';
import { ApiTags } from '../../lib/openapi/index.js';
import { PUBLIC_OPERATION, TOKEN_ONLY, UNAUTHORIZED } from './openapi.js';
import { PURGE_WORK, purgeJob } from './purge-job.js';
import { apiKeysController } from './api-keys-controller.js';
import { auth, Claims } from './claims.js';
import type { TenantsConfig } from './config.js';
import { DemoAccounts, newAccountClaims } from './demo-accounts.js';
import { tenantPostsController } from './tenant-posts-controller.js';
import { tenantLiveController } from './tenant-live-controller.js';
import { InMemoryTenantPosts, TENANT_POSTS } from './tenant-posts.js';
import { TENANT_KEYS, TenantApiKeys } from './tenant-api-keys.js';
import { ApiKeyRateLimitGuard, RATE_LIMIT_COUNTER } from './rate-limit.js';
import type { TenantsStores } from './postgres/tenants-stores.js';

const CLOCK = createToken<Clock>('CLOCK');

/** The browser-session options, shared with the OpenAPI description (the cookie's name follows them). */
export const TENANTS_BROWSER_SESSIONS: BrowserSessionOptions = Object.freeze({});

/**
 * The auth routes the module mounts; `personSchemes` names the OpenAPI schemes (openapi.ts) a
 * person's routes accept, so the document never offers an API key there.
 */
export const TENANTS_AUTH_ROUTES: AuthRouteOptions = Object.freeze({ json: true, browser: true, accounts: true, sessions: true, personSchemes: ['bearer', 'browserSession'] });

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
  /**
   * Where the app's jobs live (the account mails sent through SMTP_URL, the purge on PURGE_CRON):
   * `pgBossJobEngine` on the database, shared by every instance. Omitted: in this process.
   */
  readonly jobs?: JobEngine;
}

/**
 * Where account mails go: the option, else SMTP_URL through nodemailer as jobs (retried with
 * backoff while the SMTP server refuses), else the log (development). With SMTP_URL, each mail is
 * also promised as a job before the answer (`mailQueue`): on PostgreSQL (pg-boss on DATABASE_URL,
 * the stores' database), in sign-up's own transaction.
 */
function accountMailer(config: TenantsConfig, options: TenantsModuleOptions): { mailer: Mailer | undefined; mailQueue?: AccountMailQueue; providers: readonly ProviderInput[] } {
  if (options.mailer !== undefined) return { mailer: options.mailer, providers: [] };
  if (config.smtpUrl === undefined) return { mailer: undefined, providers: [] };
  const mail = mailJobs(smtpMailer(config.smtpUrl, config.mailFrom === undefined ? {} : { from: config.mailFrom }));
  const intents = accountMailJobs({ joinsTransactions: options.jobs?.kind === 'postgres' });
  return { mailer: mail.mailer, mailQueue: intents.queue, providers: [...mail.providers, ...intents.providers] };
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
      // In memory, ended windows and expired tokens go with the process: nothing to purge.
      { provide: PURGE_WORK, useValue: async () => ({}) },
    ],
    exports: [TENANT_KEYS, RATE_LIMIT_COUNTER, TENANT_POSTS, IDEMPOTENCY_STORE, PURGE_WORK],
  });
  // The refresh-token store stamps rotations with the same clock the auth module reads.
  return { module, accountStore: DemoAccounts, refreshTokenStore: defineProvider(InMemoryRefreshTokenStore, [CLOCK]), secondFactorStore: InMemorySecondFactorStore };
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
  const { mailer, mailQueue, providers: mailProviders } = accountMailer(config, options);
  const signInCounters = stores.signInCounters;
  return defineModule({
    name: 'TenantsModule',
    imports: [
      ClockModule,
      stores.module,
      JobsModule.forRoot(options.jobs === undefined ? {} : { engine: options.jobs }),
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
          ...(mailQueue === undefined ? {} : { mailQueue }),
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
        // Sign-in through the outside OpenID provider (OIDC_*) as provider `oidc`: the module mounts
        // GET /auth/oidc/oidc and its callback. Flows and links live beside the accounts (the
        // database with DATABASE_URL), so any instance answers the callback.
        ...(config.oidc === undefined
          ? {}
          : {
              outsideSignIn: {
                providers: [{ name: 'oidc', issuer: config.oidc.issuer, clientId: config.oidc.clientId, clientSecret: config.oidc.clientSecret, linkVerifiedEmail: config.oidc.linkVerifiedEmail }],
                baseUrl: config.appUrl,
                ...(stores.outsideSignIn === undefined ? {} : { flowStore: stores.outsideSignIn.flowStore, identityStore: stores.outsideSignIn.identityStore, imports: [stores.module] }),
              },
            }),
        apiKeys: {
          store: { useExisting: TENANT_KEYS },
          imports: [stores.module],
          cacheSeconds: config.apiKeyCacheSeconds,
        },
        // The auth routes, mounted by the module under /auth: JSON tokens, browser cookies, the
        // account lifecycle, sessions per device (docs/auth.md, "Mounted routes"). Sign-up and the
        // mail routes are throttled on the sign-in throttle's counters (the database's, with
        // PostgreSQL); sessions, password and e-mail change need a sign-in of the last 10 minutes.
        routes: TENANTS_AUTH_ROUTES,
        // Second factors: TOTP, recovery codes and passkeys; once a person enables one, every
        // sign-in asks for it, and creating an API key needs one within STEP_UP_SECONDS.
        secondFactors: {
          store: stores.secondFactorStore,
          imports: [stores.module],
          encryptionKeys: config.factorEncryptionKeys,
          totpIssuer: 'Tessera tenants',
          stepUpSeconds: config.stepUpSeconds,
          passkeys: { rpId: config.passkeys.rpId, rpName: 'Tessera tenants', origins: config.passkeys.origins },
        },
      }),
    ],
    // The module's own counter and idempotency store, when given, win over those its stores export (own providers first).
    providers: [
      defineProvider(ApiKeyRateLimitGuard, [RATE_LIMIT_COUNTER]),
      purgeJob(config.purgeCron),
      ...mailProviders,
      ...(options.rateLimitCounter === undefined ? [] : [defineFactory(RATE_LIMIT_COUNTER, [CLOCK], options.rateLimitCounter)]),
      ...(options.idempotencyStore === undefined ? [] : [defineFactory(IDEMPOTENCY_STORE, [CLOCK], options.idempotencyStore)]),
    ],
    // Runs after the auth module's guard (modules' app guards run in import order), so only verified keys are counted.
    appGuards: [ApiKeyRateLimitGuard],
    controllers: [
      meController,
      tenantPostsController,
      tenantLiveController,
      apiKeysController,
      // The app's own sessions only (AccountGuard): neither an API key nor a provider's token manages a person's factors.
      ...secondFactorControllers(auth, {
        browser: true,
        signedInGuards: [auth.AccountGuard],
        signedInMetadata: [ApiTags('Auth'), TOKEN_ONLY, UNAUTHORIZED],
        publicMetadata: [ApiTags('Auth'), PUBLIC_OPERATION],
      }),
    ],
  });
}
