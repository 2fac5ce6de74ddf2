import { createToken, defineController, defineModule, defineProvider, get, systemClock, type Clock } from '../../lib/index.js';
import { InMemoryRefreshTokenStore } from '../../lib/auth/index.js';
import { authController } from './auth-controller.js';
import { auth } from './claims.js';
import type { TenantsConfig } from './config.js';
import { DemoAccounts } from './demo-accounts.js';
import { tenantPostsController } from './tenant-posts-controller.js';
import { TenantPosts } from './tenant-posts.js';

const CLOCK = createToken<Clock>('CLOCK');

/** `GET /me`: the caller's claims. */
export const meController = defineController({
  name: 'MeController',
  routes: () => ({ me: get('/me', (ctx) => auth.getCurrentUser(ctx)) }),
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
  return defineModule({
    name: 'TenantsModule',
    imports: [
      ClockModule,
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
      }),
    ],
    providers: [defineProvider(TenantPosts, [CLOCK])],
    controllers: [authController, meController, tenantPostsController],
  });
}
