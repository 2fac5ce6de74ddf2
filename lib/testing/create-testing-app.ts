import { createApp, type App, type AppOptions, type Constructor, type ControllerDefinition, type Guard, type GuardToken, type InjectionToken, type Interceptor, type InterceptorToken, type ModuleInput, type ProviderInput, type RouteMap } from '../index.js';

/**
 * The app a test compiled: the `App` `createApp` returns, whose `get` also hands out what the
 * test configured: a provider by its token, a class a forRoot-style module registered under its
 * own token (the auth module's stores), and a controller: a class controller's instance, or a
 * `defineController` controller's routes (what its `routes` function returned).
 *
 * @example
 * const app = await createTestingApp(AppModule).compile();
 * const controller = app.get(PostsController); // a facade class controller: its instance
 * const routes = app.get(postsController);     // a defineController controller: its routes
 */
export interface TestingApp extends App {
  get<Routes extends RouteMap>(controller: ControllerDefinition<Routes>): Routes;
  get<T>(token: InjectionToken<T>): T;
}

/**
 * How an overridden provider, guard or interceptor is made instead: a ready value, a class
 * (with its dependency list when it has constructor parameters and no decorator metadata), or a
 * factory. Each returns the builder, for chaining.
 *
 * @example
 * createTestingApp(AppModule).overrideProvider(PostsStore).useValue(fakeStore).compile();
 */
export interface OverrideWith<T> {
  useValue(value: T): TestingAppBuilder;
  useClass(cls: Constructor<T>, inject?: readonly InjectionToken<unknown>[]): TestingAppBuilder;
  useFactory<D extends readonly InjectionToken<unknown>[]>(factory: { readonly inject?: D; readonly useFactory: (...deps: never[]) => T | Promise<T> }): TestingAppBuilder;
}

/**
 * Builds an app for a test with parts of its module graph replaced; see {@link createTestingApp}.
 *
 * @example
 * const app = await createTestingApp(AppModule).overrideGuard(AuthGuard).useValue({ canActivate: () => true }).compile();
 */
export interface TestingAppBuilder {
  /**
   * Replaces the provider of `token` in every module that declares it; its dependents get the
   * replacement. A class also replaces the providers that build it under another token, as
   * forRoot-style modules register what they are given (the auth module's stores:
   * `issuing: { refreshTokenStore: defineProvider(PostgresRefreshTokenStore, [SQL_CLIENT]) }`).
   */
  overrideProvider<T>(token: InjectionToken<T>): OverrideWith<T>;
  /** Replaces a guard, whether a module provides it or routes name it directly. */
  overrideGuard(guard: GuardToken): OverrideWith<Guard>;
  /** Replaces an interceptor, like {@link TestingAppBuilder.overrideGuard}. */
  overrideInterceptor(interceptor: InterceptorToken): OverrideWith<Interceptor>;
  /** Uses `other` wherever `module` is imported (same identity: the class, or the very definition object). */
  overrideModule(module: ModuleInput): { useModule(other: ModuleInput): TestingAppBuilder };
  /**
   * Boots the app, as `createApp` would, with the overrides. Fails, naming it, when an override
   * matches nothing in the graph.
   */
  compile(): Promise<TestingApp>;
}

/**
 * A test's app: the real root module with providers, guards, interceptors or whole modules
 * replaced wherever they are declared, in imported, dynamic (`forRoot`), global, class-style and
 * builder-style modules alike. The root definition is never changed; `compile()` returns the same
 * `App` `createApp` returns (`app.request(...)` for in-process requests), typed as a
 * {@link TestingApp} whose `get` takes controllers too.
 *
 * @example
 * const app = await createTestingApp(AppModule)
 *   .overrideProvider(PostsStore).useValue(new FakePostsStore())
 *   .overrideModule(DatabaseModule).useModule(InMemoryDatabaseModule)
 *   .compile();
 * const res = await app.request('/posts');
 */
export function createTestingApp(rootModule: ModuleInput, appOptions: AppOptions = {}): TestingAppBuilder {
  const providers = new Map<InjectionToken<unknown>, ProviderInput>();
  const modules = new Map<ModuleInput, ModuleInput>();

  const overrideWith = <T>(token: InjectionToken<T>): OverrideWith<T> => ({
    useValue(value) {
      providers.set(token, { provide: token, useValue: value } as ProviderInput);
      return builder;
    },
    useClass(cls, inject) {
      providers.set(token, (inject === undefined ? { provide: token, useClass: cls } : { provide: token, useClass: cls, inject }) as ProviderInput);
      return builder;
    },
    useFactory(factory) {
      providers.set(token, { provide: token, useFactory: factory.useFactory, inject: factory.inject ?? [] } as ProviderInput);
      return builder;
    },
  });

  const builder: TestingAppBuilder = {
    overrideProvider: (token) => overrideWith(token),
    overrideGuard: (guard) => overrideWith(guard),
    overrideInterceptor: (interceptor) => overrideWith(interceptor),
    overrideModule: (module) => ({
      useModule(other) {
        modules.set(module, other);
        return builder;
      },
    }),
    // The app's own get already finds controllers and classes; TestingApp only types them.
    compile: () => createApp(rootModule, { ...appOptions, overrides: { providers: new Map(providers), modules: new Map(modules) } }) as Promise<TestingApp>,
  };
  return builder;
}
