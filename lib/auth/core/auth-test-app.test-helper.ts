/**
 * The scaffolding lib/auth's app tests share: an app of `AuthModule.forRoot` with the test's
 * options over a test secret, the stores the test made (in memory, so that it or a second
 * instance can share them) in a module named `Stores`, and the test's controllers. What differs
 * between the tests (the options, the stores, the routes, the app's logger or bus) is theirs to
 * give. Not exported from the package.
 */
import { z } from 'zod';
import { createApp, defineModule, defineProvider, type App, type AppOptions, type ControllerInput, type InjectionToken, type ModuleDefinition, type ValueProvider } from '../../index.js';
import type { ApiKeyStore, AuthDefinitions, AuthModuleOptions, StoreClass } from '../index.js';

/** The HMAC secret of the tests' apps: long enough for HS256. */
export const TEST_SECRET = 'a-test-secret-that-is-long-enough-for-hs256!';

/** The claims most of the tests' apps carry. */
export const TestClaims = z.object({ sub: z.string(), roles: z.array(z.string()) });

/** A stand-in password hasher (`plain:<password>`): the tests are about sessions and guards, not Argon2id's cost. */
export const plainPasswordHasher = {
  hash: async (password: string) => `plain:${password}`,
  verify: async (password: string, phc: string) => phc === `plain:${password}`,
};

/** What differs between the tests' apps. */
export interface AuthTestModuleOptions<Claims> {
  /** The test's own `defineAuthModule(...)`, whose guards its controllers use. */
  readonly auth: AuthDefinitions<Claims>;
  /** Values the `Stores` module provides and exports under their tokens: the stores the test holds. */
  readonly stores?: readonly ValueProvider<unknown>[];
  /** The options of `forRoot` but the secret (`TEST_SECRET` unless given), from the `Stores` module for the features' `imports`. */
  readonly forRoot: (stores: ModuleDefinition) => NoInfer<Omit<AuthModuleOptions<Claims>, 'secret'> & { readonly secret?: string }>;
  readonly controllers?: readonly ControllerInput[];
}

/**
 * The root module: `Stores` and `AuthModule.forRoot(...)` imported, the test's controllers. For a
 * test that starts several instances of one app.
 *
 * @example
 * const root = authTestModule({ auth, stores: [{ provide: InMemoryRefreshTokenStore, useValue: refreshTokens }], forRoot: (Stores) => ({ issuing: { ..., imports: [Stores] } }) });
 * const [a, b] = await Promise.all([createApp(root, { pubsub: bus }), createApp(root, { pubsub: bus })]);
 */
export function authTestModule<Claims>(options: AuthTestModuleOptions<Claims>): ModuleDefinition {
  const stores = options.stores ?? [];
  const Stores = defineModule({ name: 'Stores', providers: stores, exports: stores.map((store) => store.provide) });
  return defineModule({
    name: 'Root',
    imports: [Stores, options.auth.AuthModule.forRoot({ secret: TEST_SECRET, ...options.forRoot(Stores) })],
    controllers: options.controllers ?? [],
  });
}

/**
 * The app of {@link authTestModule}, with the app's own options (a logger, a bus).
 *
 * @example
 * const app = await authTestApp({ auth, forRoot: () => ({ apiKeys: { store: InMemoryApiKeyStore } }), controllers: [controller], app: { logger } });
 */
export function authTestApp<Claims>(options: AuthTestModuleOptions<Claims> & { readonly app?: AppOptions }): Promise<App> {
  return createApp(authTestModule(options), options.app);
}

/**
 * An `apiKeys.store` that is the store a test provides as a value under `token` (the module
 * builds its store as a class: this one hands every lookup to the test's).
 *
 * @example
 * apiKeys: { store: apiKeyStoreFrom(KEYS), imports: [Stores] }
 */
export function apiKeyStoreFrom(token: InjectionToken<ApiKeyStore>): StoreClass<ApiKeyStore> {
  class StoreFromToken implements ApiKeyStore {
    constructor(private readonly inner: ApiKeyStore) {}
    find(id: string) {
      return this.inner.find(id);
    }
  }
  return defineProvider(StoreFromToken, [token]);
}
