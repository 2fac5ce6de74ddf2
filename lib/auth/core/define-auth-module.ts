import { systemClock, defineModule, defineFactory, defineProvider, createToken, createStateKey, LOGGER, PUB_SUB, WEB_SOCKETS, type ClassToken, type Guard, type HealthCheck, type ModuleDefinition, type ProviderInput, type RequestContext, type SchemaOutput, type StandardSchemaV1, type StateKey, type Token } from '../../index.js';
import { CLIENT_ADDRESS_RULE, ORIGIN_POLICY } from '../../internal/client-policies.js';
import { checkedClock } from '../../internal/primitives.js';
import { claimsParserOf } from './claims-parser.js';
import type { ApiKeyStore, AuthenticatedApiKey } from '../credentials/api-keys/index.js';
import { createAuthGuards } from './auth-guards.js';
import { jwksHealthCheck } from './jwks-health-check.js';
import { startCredentialRevocation, type CredentialRevocation } from '../sessions/state/credential-revocation.js';
import { tracedStore } from '../shared/auth-telemetry.js';
import type { AuthModuleOptions, StoreClass } from './auth-options.js';
import { startAuthRuntime, type AuthRuntime } from './auth-runtime.js';
import { checkDeprecatedAllowedOrigins, checkDeprecatedClientIp } from './app-policy-aliases.js';
import { completeRefreshTokenStore, type CredentialStore, type RefreshTokenStore } from '../sessions/issuing/index.js';
import { signInThrottleProvider, type SignInThrottle } from '../throttle/index.js';
import { accountProviders } from './account-providers.js';
import type { AccountService } from '../accounts/account-service.js';
import type { AccountStore } from '../accounts/account-store.js';
import { readTolerance } from '../credentials/jwt/index.js';
import { ownTokenNames } from '../credentials/jwt/own-token-names.js';
import { BrowserSessions } from '../sessions/browser/index.js';
import { createRecentAuthGuards, type RecentAuthOptions, requireRecentAuthentication } from './recent-auth-guard.js';
import { accountRouteThrottleImports, accountRouteThrottleProvider, type AccountRouteThrottle } from '../throttle/index.js';
import { authRouteControllers, authRoutes, routePrefix, type AuthRouteControllers, type AuthRouteOptions, type AuthRouteParts } from '../routes/index.js';
import { NoStore } from './no-store.js';
import { secondFactorProviders, type SecondFactorTokens } from './second-factor-providers.js';
import { createStepUpGuard } from '../factors/step-up.js';
import type { SecondFactorService } from '../factors/second-factor-service.js';
import { outsideSignInProviders } from '../federation/outside-sign-in-providers.js';
import { outsideSignInController } from '../federation/outside-sign-in-controller.js';
import type { OutsideSignIn } from '../federation/outside-sign-in.js';
import { SecurityEvents } from '../events/security-events.js';
import type { SecurityEventSink } from '../events/security-event.js';
import { authServiceProvider, type AuthService } from './auth-service.js';
import { checkAuthModuleOptions } from './check-auth-module-options.js';

/**
 * What `defineAuthModule(claimsSchema)` returns: everything bound to that schema.
 *
 * @example
 * const auth: AuthDefinitions<Claims> = defineAuthModule(Claims);
 */
export interface AuthDefinitions<Claims> {
  /** The dynamic module: `AuthModule.forRoot(options)`. */
  readonly AuthModule: { forRoot(options: AuthModuleOptions<Claims>): ModuleDefinition };
  /** Bearer tokens only; never API keys. */
  readonly JwtAuthGuard: ClassToken<Guard>;
  /** Token or API key, unless `Public()`; then `Roles` and, for keys, `RequireScopes`. */
  readonly AuthGuard: ClassToken<Guard>;
  /**
   * Bearer tokens (or the session cookie) of the app's own sessions only: an outside issuer's
   * token is refused (401) on the routes that reach a local account. Read the account with
   * `getAccountId(ctx)`.
   */
  readonly AccountGuard: ClassToken<Guard>;
  /** A guard class requiring one of `roles`; list it after `JwtAuthGuard`. */
  readonly createRolesGuard: (...roles: [string, ...string[]]) => new () => Guard;
  /** The claims of the authenticated caller, or undefined. */
  readonly getCurrentUser: (ctx: Pick<RequestContext, 'get'> | undefined) => Claims | undefined;
  /** `{ id, scopes }` of the API key used, or undefined for tokens. */
  readonly getCurrentApiKey: (ctx: Pick<RequestContext, 'get'> | undefined) => AuthenticatedApiKey | undefined;
  /** Resolves to the {@link AuthService} when `issuing` is configured; otherwise `MissingProviderError`. */
  readonly AUTH_SERVICE: Token<AuthService>;
  /** The `jwks` readiness check of the trusted issuers' keys: `health: { checks: [JWKS_HEALTH_CHECK] }`. */
  readonly JWKS_HEALTH_CHECK: Token<HealthCheck>;
  /**
   * Revocations told to every instance through the app's PubSub, so that cached API-key records
   * are dropped and ended sessions' access tokens refused everywhere at once (see
   * CredentialRevocation). Exported by `AuthModule`; `AUTH_SERVICE` uses it by itself.
   */
  readonly CREDENTIAL_REVOCATION: Token<CredentialRevocation>;
  /** @deprecated Renamed `CREDENTIAL_REVOCATION` (the same token); removed in 0.3. */
  readonly CREDENTIAL_INVALIDATION: Token<CredentialRevocation>;
  /** Resolves to the {@link AccountService} (sign-up, verification, reset, password and e-mail change) when `accounts` is configured. */
  readonly ACCOUNT_SERVICE: Token<AccountService<Claims>>;
  /** Resolves to the {@link BrowserSessions} (sign-in, refresh, sign-out with cookies) when `browser` is configured. */
  readonly BROWSER_SESSIONS: Token<BrowserSessions>;
  /**
   * A guard class that lets a request through only when a person signed in within
   * `withinSeconds` (default the module's `recentAuthSeconds`, 600): else the
   * `reauthentication_required` 401 (`REAUTHENTICATION_REQUIRED_TYPE`). An API key is refused (403).
   * List it after the guard that authenticates. For what a stolen session must not do: change
   * the password or address, see or end sessions, create API keys.
   *
   * @example
   * post('/api-keys', { guards: [JwtAuthGuard, requireRecentAuth({ withinSeconds: 300 })] }, handler);
   */
  readonly requireRecentAuth: (options?: RecentAuthOptions) => ClassToken<Guard>;
  /** `requireRecentAuth()`: the module's own freshness (`recentAuthSeconds`). */
  readonly RecentAuthGuard: ClassToken<Guard>;
  /**
   * The controllers `forRoot` mounts for `routes` (by group: `json`, `browser`, `accounts`,
   * `accountSettings`, `sessions`), typed: give one to `createClient` for a typed client of the
   * mounted routes (same `prefix`).
   *
   * @example
   * const client = createClient(auth.routeControllers().json, 'http://localhost:3000');
   * await client.signIn({ body: { identifier, password } });
   */
  readonly routeControllers: (routes?: Pick<AuthRouteOptions, 'prefix' | 'personSchemes'>) => AuthRouteControllers;
  /** Resolves to the {@link SecondFactorService} (TOTP, recovery codes, passkeys, the sign-in's second step, step-up) when `secondFactors` is configured. */
  readonly SECOND_FACTORS: Token<SecondFactorService>;
  /** Requires a recent second factor (or sign-in) of the session, per `RequireStepUp(...)`; provided when `secondFactors` is configured. */
  readonly StepUpGuard: ClassToken<Guard>;
  /** Resolves to the {@link OutsideSignIn} when `outsideSignIn` is configured (its routes are mounted by the module). */
  readonly OUTSIDE_SIGN_IN: Token<OutsideSignIn>;
  /**
   * The module's security events (`SecurityEvents` on the app's logger and telemetry): the module
   * records sign-ins, throttling, refresh-token reuse, sessions ended, password and e-mail changes,
   * disabled accounts and API-key revocations itself; an app records what only it does through
   * it, such as creating an API key.
   */
  readonly SECURITY_EVENTS: Token<SecurityEventSink>;
}

function toProvider<T>(token: Token<T>, store: StoreClass<T>): ProviderInput {
  if (typeof store === 'function') return { provide: token, useClass: store as never };
  if ('useExisting' in store) return { provide: token, useExisting: store.useExisting };
  return { provide: token, useClass: store.useClass, inject: store.inject ?? [] };
}

/**
 * Everything the auth module offers, bound to one claims schema: any Standard Schema (zod,
 * valibot, ArkType, ...) whose output is the claims object. Call it once per app.
 *
 * @example
 * const Claims = z.object({ sub: z.string(), roles: z.array(z.string()) });
 * export const { AuthModule, AuthGuard, JwtAuthGuard, createRolesGuard, getCurrentUser, AUTH_SERVICE } = defineAuthModule(Claims);
 */
export function defineAuthModule<S extends StandardSchemaV1>(schema: S): AuthDefinitions<SchemaOutput<S>> {
  type Claims = SchemaOutput<S>;
  // Any Standard Schema: zod as it is, another library's behind the two methods the parts call.
  const claimsSchema = claimsParserOf<Claims>(schema);
  const CURRENT_USER = createStateKey<Claims>('auth:current-user');
  const CURRENT_API_KEY = createStateKey<AuthenticatedApiKey>('auth:current-api-key');
  const API_KEY_STORE = createToken<ApiKeyStore>('ApiKeyStore');
  const AUTH_RUNTIME = createToken<AuthRuntime<Claims>>('AuthRuntime');
  const AUTH_SERVICE = createToken<AuthService>('AUTH_SERVICE');
  const CREDENTIAL_STORE = createToken<CredentialStore<Claims>>('CredentialStore');
  const REFRESH_TOKEN_STORE = createToken<RefreshTokenStore>('RefreshTokenStore');
  const JWKS_HEALTH_CHECK = createToken<HealthCheck>('JwksHealthCheck');
  const CREDENTIAL_REVOCATION = createToken<CredentialRevocation>('CredentialRevocation');
  const SIGN_IN_THROTTLE = createToken<SignInThrottle | null>('SignInThrottle');
  const ACCOUNT_STORE = createToken<AccountStore<Claims>>('AccountStore');
  const ACCOUNT_SERVICE = createToken<AccountService<Claims>>('ACCOUNT_SERVICE');
  const BROWSER_SESSIONS = createToken<BrowserSessions>('BROWSER_SESSIONS');
  const ACCOUNT_ROUTE_THROTTLE = createToken<AccountRouteThrottle | null>('AccountRouteThrottle');
  const factorTokens: SecondFactorTokens = {
    store: createToken('SecondFactorStore'),
    gate: createToken('SecondFactorGate'),
    service: createToken<SecondFactorService>('SECOND_FACTORS'),
  };
  const SECOND_FACTORS = factorTokens.service;
  const StepUpGuard = createStepUpGuard({ currentUser: CURRENT_USER, currentApiKey: CURRENT_API_KEY });
  const OUTSIDE_SIGN_IN = createToken<OutsideSignIn>('OUTSIDE_SIGN_IN');
  const { JwtAuthGuard, AuthGuard, createRolesGuard, AccountGuard } = createAuthGuards<Claims>({ currentUser: CURRENT_USER, currentApiKey: CURRENT_API_KEY });
  const requireRecentAuth = createRecentAuthGuards<Claims>({ currentUser: CURRENT_USER, currentApiKey: CURRENT_API_KEY }, AUTH_RUNTIME);
  const RecentAuthGuard = requireRecentAuth();
  const SECURITY_EVENTS = createToken<SecurityEventSink>('SECURITY_EVENTS');

  /**
   * The claims of the authenticated caller; undefined outside a request or before a guard ran.
   *
   * @example
   * get('/me', { guards: [JwtAuthGuard] }, (ctx) => getCurrentUser(ctx));
   */
  function getCurrentUser(ctx: Pick<RequestContext, 'get'> | undefined): Claims | undefined {
    return ctx?.get(CURRENT_USER);
  }

  /**
   * The API key that authenticated the request (`{ id, scopes }`), or undefined for a request
   * authenticated by a token (or not at all). Log the id, never the key.
   *
   * @example
   * createApp(AppModule, { accessLog: { fields: (ctx) => ({ keyId: getCurrentApiKey(ctx)?.id }) } });
   */
  function getCurrentApiKey(ctx: Pick<RequestContext, 'get'> | undefined): AuthenticatedApiKey | undefined {
    return ctx?.get(CURRENT_API_KEY);
  }

  /** What the mounted controllers are built from: this module's tokens and guards. */
  function routeParts(routes: Pick<AuthRouteOptions, 'prefix' | 'personSchemes'> | undefined): AuthRouteParts<Claims> {
    return {
      prefix: routes === undefined ? '/auth' : routePrefix(routes),
      sessions: AUTH_SERVICE,
      browserSessions: BROWSER_SESSIONS,
      accounts: ACCOUNT_SERVICE,
      throttle: ACCOUNT_ROUTE_THROTTLE,
      runtime: AUTH_RUNTIME,
      currentUser: CURRENT_USER as StateKey<unknown>,
      personGuard: JwtAuthGuard,
      recentAuthGuard: RecentAuthGuard,
      noStore: NoStore,
      personSchemes: routes?.personSchemes,
    };
  }

  /**
   * Every group's controller as `forRoot` mounts it with these `routes` options, typed: for
   * `createClient`, or to mount a group in a module of the app's own.
   *
   * @example
   * const client = createClient(routeControllers().json, 'http://localhost:3000');
   */
  function routeControllers(routes?: Pick<AuthRouteOptions, 'prefix' | 'personSchemes'>): AuthRouteControllers {
    return authRoutes<Claims>(routeParts(routes));
  }

  const AuthModule = {
    /**
     * The auth module for an app. Throws `AuthConfigError` right away for a secret shorter
     * than the algorithm needs.
     *
     * @example
     * imports: [AuthModule.forRoot({ secret, issuing: { credentialStore: Accounts, refreshTokenStore: InMemoryRefreshTokenStore } })]
     */
    forRoot(options: AuthModuleOptions<Claims>): ModuleDefinition {
      // Every option is checked now, so a misconfigured module fails forRoot, not the first request.
      checkAuthModuleOptions(options);
      const algorithm = options.algorithm ?? 'HS256';
      const routes = options.routes;
      // Checked here (a broken clock fails forRoot) and on every reading (fails closed later).
      const clock = checkedClock(options.clock ?? systemClock);
      // An app that issues tokens signs and checks iss and aud, by default too (ASVS 9.2.3).
      const { issuer, audience } = ownTokenNames(options);
      const checked: AuthModuleOptions<Claims> = { ...options, clock, issuer, audience };
      const apiKeys = options.apiKeys;
      const providers: ProviderInput[] = [
        apiKeys
          ? defineFactory(AUTH_RUNTIME, [API_KEY_STORE, WEB_SOCKETS, CLIENT_ADDRESS_RULE, ORIGIN_POLICY, LOGGER, SECURITY_EVENTS], (store, webSockets, rule, origins, logger, events) => {
              checkDeprecatedClientIp(checked, rule, logger);
              checkDeprecatedAllowedOrigins(checked, origins, logger);
              return startAuthRuntime<Claims>(claimsSchema, checked, store, { webSockets, currentApiKey: CURRENT_API_KEY }, origins, events);
            })
          : defineFactory(AUTH_RUNTIME, [WEB_SOCKETS, CLIENT_ADDRESS_RULE, ORIGIN_POLICY, LOGGER, SECURITY_EVENTS], (webSockets, rule, origins, logger, events) => {
              checkDeprecatedClientIp(checked, rule, logger);
              checkDeprecatedAllowedOrigins(checked, origins, logger);
              return startAuthRuntime<Claims>(claimsSchema, checked, undefined, { webSockets, currentApiKey: CURRENT_API_KEY }, origins, events);
            }),
        defineProvider(JwtAuthGuard, [AUTH_RUNTIME]),
        defineProvider(AuthGuard, [AUTH_RUNTIME]),
        defineProvider(AccountGuard, [AUTH_RUNTIME]),
        defineFactory(JWKS_HEALTH_CHECK, [AUTH_RUNTIME], (runtime) => jwksHealthCheck(runtime.verifier)),
        // With issuing, the refresh-token store tells a starting instance which sessions ended
        // before it (untraced: a boot step, not part of any request's trace).
        options.issuing
          ? defineFactory(CREDENTIAL_REVOCATION, [AUTH_RUNTIME, PUB_SUB, LOGGER, SECURITY_EVENTS, REFRESH_TOKEN_STORE], (runtime, bus, logger, events, refreshTokens) => startCredentialRevocation(runtime, bus, clock, completeRefreshTokenStore(refreshTokens), logger, events))
          : defineFactory(CREDENTIAL_REVOCATION, [AUTH_RUNTIME, PUB_SUB, LOGGER, SECURITY_EVENTS], (runtime, bus, logger, events) => startCredentialRevocation(runtime, bus, clock, undefined, logger, events)),
        defineFactory(SECURITY_EVENTS, [LOGGER], (logger) => new SecurityEvents(logger)),
      ];
      if (apiKeys) providers.push(toProvider(API_KEY_STORE, apiKeys.store));
      const exported: unknown[] = [JwtAuthGuard, AuthGuard, AccountGuard, AUTH_RUNTIME, JWKS_HEALTH_CHECK, CREDENTIAL_REVOCATION, SECURITY_EVENTS];
      const issuing = options.issuing;
      if (issuing) {
        const authService = authServiceProvider<Claims>(issuing, { secret: options.secret, algorithm, issuer, audience }, clock, claimsSchema, {
          authService: AUTH_SERVICE,
          credentialStore: CREDENTIAL_STORE,
          refreshTokenStore: REFRESH_TOKEN_STORE,
          credentialRevocation: CREDENTIAL_REVOCATION,
          signInThrottle: SIGN_IN_THROTTLE,
          secondFactorGate: factorTokens.gate,
          securityEvents: SECURITY_EVENTS,
        });
        providers.push(
          ...accountProviders(options.accounts, issuing, clock, { credentialStore: CREDENTIAL_STORE, accountStore: ACCOUNT_STORE, accountService: ACCOUNT_SERVICE, authService: AUTH_SERVICE, signInThrottle: SIGN_IN_THROTTLE, securityEvents: SECURITY_EVENTS, toProvider, claimsSchema }),
          toProvider(REFRESH_TOKEN_STORE, issuing.refreshTokenStore),
          signInThrottleProvider(SIGN_IN_THROTTLE, options.signInThrottle, options.secret, clock, SECURITY_EVENTS),
          ...secondFactorProviders(options.secondFactors, factorTokens, { signInThrottle: SIGN_IN_THROTTLE, authService: AUTH_SERVICE, runtime: AUTH_RUNTIME, stepUpGuard: StepUpGuard, toProvider, clock, securityEvents: SECURITY_EVENTS }),
          authService,
        );
        exported.push(AUTH_SERVICE);
        if (options.secondFactors) exported.push(SECOND_FACTORS, StepUpGuard);
        if (options.accounts) exported.push(ACCOUNT_SERVICE);
        if (routes?.accounts === true) providers.push(accountRouteThrottleProvider(ACCOUNT_ROUTE_THROTTLE, routes.throttle, options.signInThrottle, options.secret, clock));
        if (options.browser !== undefined) {
          providers.push(
            defineFactory(BROWSER_SESSIONS, [AUTH_SERVICE, REFRESH_TOKEN_STORE, AUTH_RUNTIME], (service, refreshTokens, runtime) => {
              if (runtime.browser === undefined) throw new Error('browser sessions: the auth runtime has no browser credentials');
              return new BrowserSessions(service, tracedStore(refreshTokens, 'RefreshTokenStore'), runtime.browser, clock);
            }),
          );
          exported.push(BROWSER_SESSIONS);
        }
        if (options.outsideSignIn !== undefined) {
          const RECENT_AUTH = createToken<(ctx: RequestContext) => void>('OutsideSignInRecentAuth');
          providers.push(
            defineFactory(RECENT_AUTH, [AUTH_RUNTIME], (runtime) => (ctx: RequestContext) => requireRecentAuthentication(ctx, { currentUser: CURRENT_USER, currentApiKey: CURRENT_API_KEY }, runtime, runtime.recentAuthSeconds)),
            ...outsideSignInProviders(options.outsideSignIn, clock, readTolerance(options.clockToleranceSeconds), {
              outsideSignIn: OUTSIDE_SIGN_IN,
              authService: AUTH_SERVICE,
              credentialStore: CREDENTIAL_STORE as Token<CredentialStore<unknown>>,
              browserSessions: options.browser === undefined ? undefined : BROWSER_SESSIONS,
              accountStore: options.accounts === undefined ? undefined : (ACCOUNT_STORE as Token<AccountStore<unknown>>),
              toProvider,
              recentAuthentication: RECENT_AUTH,
              securityEvents: SECURITY_EVENTS,
            }),
          );
          exported.push(OUTSIDE_SIGN_IN);
        }
      }
      // The routes the app asked for, as controllers of this module (its providers are theirs).
      const controllers = authRouteControllers<Claims>(routes, routeParts(routes));
      return defineModule({
        name: 'AuthModule',
        global: options.global ?? false,
        imports: [
          ...(issuing?.imports ?? []),
          ...(apiKeys?.imports ?? []),
          ...(issuing && options.signInThrottle ? (options.signInThrottle.imports ?? []) : []),
          ...(options.accounts?.imports ?? []),
          ...(routes?.accounts === true ? accountRouteThrottleImports(routes.throttle) : []),
          ...(options.secondFactors?.imports ?? []),
          ...(options.outsideSignIn?.imports ?? []),
        ],
        providers,
        // The outside sign-in's routes come with its configuration.
        controllers: issuing && options.outsideSignIn !== undefined ? [...controllers, outsideSignInController(OUTSIDE_SIGN_IN, AccountGuard)] : controllers,
        exports: exported as never,
        appGuards: options.protectAllRoutes ? [AuthGuard] : [],
      });
    },
  };

  return Object.freeze({ AuthModule, JwtAuthGuard, AuthGuard, AccountGuard, createRolesGuard, getCurrentUser, getCurrentApiKey, AUTH_SERVICE, JWKS_HEALTH_CHECK, CREDENTIAL_REVOCATION, CREDENTIAL_INVALIDATION: CREDENTIAL_REVOCATION, ACCOUNT_SERVICE, BROWSER_SESSIONS, SECURITY_EVENTS, requireRecentAuth, RecentAuthGuard, routeControllers, SECOND_FACTORS, StepUpGuard, OUTSIDE_SIGN_IN });
}
