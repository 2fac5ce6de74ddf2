import { createToken, defineController, defineFactory, defineModule, defineProvider, get, systemClock, type Clock } from '../../lib/index.js';
import { InMemoryRefreshTokenStore } from '../../lib/auth/index.js';
import { apiKeysController } from './api-keys-controller.js';
import { authController } from './auth-controller.js';
import { auth, Claims } from './claims.js';
import type { TenantsConfig } from './config.js';
import { DemoAccounts } from './demo-accounts.js';
import { tenantPostsController } from './tenant-posts-controller.js';
import { TenantPosts } from './tenant-posts.js';
import { TenantApiKeys } from './tenant-api-keys.js';
import { ApiKeyRateLimitGuard, FixedWindowCounter } from './rate-limit.js';

const CLOCK = createToken<Clock>('CLOCK');

/** `GET /me`: the caller's claims. */
export const meController = defineController({
  name: 'MeController',
  routes: () => ({ me: get('/me', { response: Claims }, (ctx) => auth.getCurrentUser(ctx)) }),
});

/**
 * The multi-tenant reference app: every route needs a credential (protectAllRoutes) except the
 * public auth routes.
 *
 * @example
 * const app = await createApp(createTenantsModule(readTenantsConfig(process.env)));
 */
export function createTenantsModule(config: TenantsConfig, options: { clock?: Clock } = {}) {
  const clock = options.clock ?? systemClock;
  // The refresh-token store stamps rotations with the same clock the auth module reads.
  const ClockModule = defineModule({ name: 'ClockModule', providers: [{ provide: CLOCK, useValue: clock }], exports: [CLOCK] });
  // One key store shared by the auth module (verification) and the key routes (management).
  const KeysModule = defineModule({
    name: 'KeysModule',
    imports: [ClockModule],
    providers: [defineFactory(TenantApiKeys, [CLOCK], (c) => new TenantApiKeys().useClock(c))],
    exports: [TenantApiKeys],
  });
  return defineModule({
    name: 'TenantsModule',
    imports: [
      ClockModule,
      KeysModule,
      auth.AuthModule.forRoot({
        secret: config.secret,
        algorithm: 'HS256',
        issuer: config.issuer,
        audience: config.audience,
        protectAllRoutes: true,
        clock,
        issuing: {
          credentialStore: DemoAccounts,
          refreshTokenStore: defineProvider(InMemoryRefreshTokenStore, [CLOCK]),
          imports: [ClockModule],
          refreshReuseGraceSeconds: config.refreshReuseGraceSeconds,
        },
        apiKeys: {
          store: { useExisting: TenantApiKeys },
          imports: [KeysModule],
          cacheSeconds: config.apiKeyCacheSeconds,
          clientIp: { trustedProxyHops: config.trustedProxyHops },
        },
      }),
    ],
    providers: [
      defineProvider(TenantPosts, [CLOCK]),
      defineFactory(FixedWindowCounter, [CLOCK], (c) => new FixedWindowCounter(config.apiKeyRateLimit, config.apiKeyRateWindowMs, c)),
      defineProvider(ApiKeyRateLimitGuard, [FixedWindowCounter]),
    ],
    // Runs after the auth module's guard (modules' app guards run in import order), so only verified keys are counted.
    appGuards: [ApiKeyRateLimitGuard],
    controllers: [authController, meController, tenantPostsController, apiKeysController],
  });
}
