import { checkedClock, systemClock, CLIENT_ADDRESS_RULE, ORIGIN_POLICY, defineModule, defineFactory, defineProvider, createToken, createStateKey, LOGGER, PUB_SUB, WEB_SOCKETS, type ClassToken, type Guard, type HealthCheck, type ModuleDefinition, type ProviderInput, type RequestContext, type SchemaOutput, type StandardSchemaV1, type Token } from '../internal.js';
import { claimsParserOf } from './claims-parser.js';
import type { ApiKeyStore, AuthenticatedApiKey } from './api-keys/index.js';
import { createAuthGuards } from './auth-guards.js';
import { jwksHealthCheck } from './jwks-health-check.js';
import { startCredentialRevocation, type CredentialRevocation } from './sessions/credential-revocation.js';
import { tracedStore } from './shared/auth-telemetry.js';
import type { AuthModuleOptions, StoreClass } from './auth-options.js';
import { startAuthRuntime, type AuthRuntime } from './auth-runtime.js';
import { checkDeprecatedAllowedOrigins, checkDeprecatedClientIp } from './app-policy-aliases.js';
import { TokenIssuingService, type CredentialStore, type RefreshTokenStore, type SignInContext, type TokenPair } from './issuing/index.js';
import type { SessionInfo } from './sessions/session-info.js';
import { getDummyPasswordHash } from './password/index.js';
import { checkSignInThrottleOptions, signInThrottleProvider, withSignInThrottle, type SignInThrottle } from './throttle/index.js';
import { accountProviders, checkAccountOptions } from './account-providers.js';
import type { AccountService } from './accounts/account-service.js';
import type { AccountStore } from './accounts/account-store.js';
import { AuthConfigError, assertSecretLength, readTolerance, readTrustedIssuers, createTokenSigner } from './jwt/index.js';
import { ownTokenNames } from './jwt/own-token-names.js';
import { BrowserCookies, BrowserSessions } from './browser/index.js';
import { SecurityEvents } from './events/security-events.js';
import type { SecurityEventSink } from './events/security-event.js';

/**
 * The programmatic auth operations, resolved through the `AUTH_SERVICE` token.
 *
 * @example
 * const pair = await auth.signIn('alice@acme.test', password, { clientAddress, userAgent });
 * const sessions = await auth.listSessions(pair.subject);
 */
export interface AuthService {
  /** `context` feeds sign-in throttling (per client address) and the session list. */
  signIn(identifier: string, password: string, context?: SignInContext): Promise<TokenPair>;
  refresh(refreshToken: string): Promise<TokenPair>;
  signOut(refreshToken: string): Promise<void>;
  issueTokens(subject: string, context?: SignInContext): Promise<TokenPair>;
  revokeAllSessions(subject: string): Promise<void>;
  /** The subject's live sessions (one per sign-in), oldest first. */
  listSessions(subject: string): Promise<readonly SessionInfo[]>;
  /** Ends one of the subject's sessions (sockets close 1008); false for an unknown or another subject's id, alike. */
  revokeSession(subject: string, sessionId: string): Promise<boolean>;
  /** Ends every session of the subject but `keepSessionId` (e.g. after a password change). */
  revokeOtherSessions(subject: string, keepSessionId: string): Promise<void>;
  /** @deprecated Renamed `revokeSession` (one word for ending a session: revoke); removed in 0.3. */
  endSession(subject: string, sessionId: string): Promise<boolean>;
  /** @deprecated Renamed `revokeOtherSessions`; removed in 0.3. */
  endOtherSessions(subject: string, keepSessionId: string): Promise<void>;
}

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
   * The module's security events (`SecurityEvents` on the app's logger and telemetry): the module
   * records sign-ins, throttling, refresh-token reuse, sessions ended, password and e-mail changes,
   * disabled accounts and API-key revocations itself; an app records what only it does through
   * it, such as creating an API key.
   */
  readonly SECURITY_EVENTS: Token<SecurityEventSink>;
}

/**
 * An access token's TTL (whole seconds, at least 1): `accessTokenTtl`, cut so the token ends with
 * its session (`notAfter`, the absolute lifetime) rather than after it.
 */
function accessTokenTtlWithin(accessTokenTtl: number, notAfter: Date | undefined, nowMs: number): number {
  if (notAfter === undefined) return accessTokenTtl;
  const left = Math.floor((notAfter.getTime() - nowMs) / 1000);
  return Math.max(1, Math.min(accessTokenTtl, left));
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
  const SECURITY_EVENTS = createToken<SecurityEventSink>('SECURITY_EVENTS');
  const { JwtAuthGuard, AuthGuard, createRolesGuard } = createAuthGuards<Claims>({ currentUser: CURRENT_USER, currentApiKey: CURRENT_API_KEY });

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

  const AuthModule = {
    /**
     * The auth module for an app. Throws `AuthConfigError` right away for a secret shorter
     * than the algorithm needs.
     *
     * @example
     * imports: [AuthModule.forRoot({ secret, issuing: { credentialStore: Accounts, refreshTokenStore: InMemoryRefreshTokenStore } })]
     */
    forRoot(options: AuthModuleOptions<Claims>): ModuleDefinition {
      const algorithm = options.algorithm ?? 'HS256';
      assertSecretLength(options.secret, algorithm);
      // Validated here too so a misconfigured issuer fails forRoot, not the first request.
      readTrustedIssuers(options.trustedIssuers, ownTokenNames(options).issuer);
      readTolerance(options.clockToleranceSeconds);
      checkSignInThrottleOptions(options);
      checkAccountOptions(options);
      if (options.browser !== undefined) {
        if (options.issuing === undefined) throw new AuthConfigError('browser sessions need issuing: the cookies carry the tokens it issues');
        new BrowserCookies(options.browser); // Validates domain and sameSite now, not at the first request.
      }
      // Checked here (a broken clock fails forRoot) and on every reading (fails closed later).
      const clock = checkedClock(options.clock ?? systemClock);
      // An app that issues tokens signs and checks iss and aud, by default too (ASVS 9.2.3).
      const { issuer, audience } = ownTokenNames(options);
      const checked: AuthModuleOptions<Claims> = { ...options, clock, issuer, audience };
      const apiKeys = options.apiKeys;
      const providers: ProviderInput[] = [
        apiKeys
          ? defineFactory(AUTH_RUNTIME, [API_KEY_STORE, WEB_SOCKETS, CLIENT_ADDRESS_RULE, ORIGIN_POLICY, LOGGER], (store, webSockets, rule, origins, logger) => {
              checkDeprecatedClientIp(checked, rule, logger);
              checkDeprecatedAllowedOrigins(checked, origins, logger);
              return startAuthRuntime<Claims>(claimsSchema, checked, store, { webSockets, currentApiKey: CURRENT_API_KEY }, origins);
            })
          : defineFactory(AUTH_RUNTIME, [WEB_SOCKETS, CLIENT_ADDRESS_RULE, ORIGIN_POLICY, LOGGER], (webSockets, rule, origins, logger) => {
              checkDeprecatedClientIp(checked, rule, logger);
              checkDeprecatedAllowedOrigins(checked, origins, logger);
              return startAuthRuntime<Claims>(claimsSchema, checked, undefined, { webSockets, currentApiKey: CURRENT_API_KEY }, origins);
            }),
        defineProvider(JwtAuthGuard, [AUTH_RUNTIME]),
        defineProvider(AuthGuard, [AUTH_RUNTIME]),
        defineFactory(JWKS_HEALTH_CHECK, [AUTH_RUNTIME], (runtime) => jwksHealthCheck(runtime.verifier)),
        // With issuing, the refresh-token store tells a starting instance which sessions ended
        // before it (untraced: a boot step, not part of any request's trace).
        options.issuing
          ? defineFactory(CREDENTIAL_REVOCATION, [AUTH_RUNTIME, PUB_SUB, LOGGER, SECURITY_EVENTS, REFRESH_TOKEN_STORE], (runtime, bus, logger, events, refreshTokens) => startCredentialRevocation(runtime, bus, clock, refreshTokens, logger, events))
          : defineFactory(CREDENTIAL_REVOCATION, [AUTH_RUNTIME, PUB_SUB, LOGGER, SECURITY_EVENTS], (runtime, bus, logger, events) => startCredentialRevocation(runtime, bus, clock, undefined, logger, events)),
        defineFactory(SECURITY_EVENTS, [LOGGER], (logger) => new SecurityEvents(logger)),
      ];
      if (apiKeys) providers.push(toProvider(API_KEY_STORE, apiKeys.store));
      const exported: unknown[] = [JwtAuthGuard, AuthGuard, AUTH_RUNTIME, JWKS_HEALTH_CHECK, CREDENTIAL_REVOCATION, SECURITY_EVENTS];
      const issuing = options.issuing;
      if (issuing) {
        const signer = createTokenSigner({ secret: options.secret, algorithm, issuer, audience, clock });
        const accessTokenTtl = issuing.accessTokenTtl ?? 900;
        providers.push(
          ...accountProviders(options.accounts, issuing, clock, { credentialStore: CREDENTIAL_STORE, accountStore: ACCOUNT_STORE, accountService: ACCOUNT_SERVICE, authService: AUTH_SERVICE, signInThrottle: SIGN_IN_THROTTLE, securityEvents: SECURITY_EVENTS, toProvider, claimsSchema }),
          toProvider(REFRESH_TOKEN_STORE, issuing.refreshTokenStore),
          signInThrottleProvider(SIGN_IN_THROTTLE, options.signInThrottle, options.secret, clock, SECURITY_EVENTS),
          // Every sign-in through AUTH_SERVICE (JSON and browser alike) passes the throttle.
          defineFactory(AUTH_SERVICE, [CREDENTIAL_STORE, REFRESH_TOKEN_STORE, CREDENTIAL_REVOCATION, SIGN_IN_THROTTLE, SECURITY_EVENTS], async (credentialStore, refreshTokenStore, invalidation, throttle, securityEvents) => {
            // Compute the dummy hash at boot: computed lazily, the first sign-in for an unknown
            // account would take a hash longer than the others and tell that it is unknown.
            await getDummyPasswordHash(issuing.passwordHasher);
            const service = new TokenIssuingService<Claims>({
              claimsSchema,
              credentialStore: tracedStore(credentialStore, 'CredentialStore'),
              refreshTokenStore: tracedStore(refreshTokenStore, 'RefreshTokenStore'),
              accessTokens: {
                sign: async (claims, subject, sessionId, notAfter) =>
                  signer.sign({ ...claims, sub: subject, sid: sessionId }, { ttlSeconds: accessTokenTtlWithin(accessTokenTtl, notAfter, clock.now()), type: 'access' }),
              },
              accessTokenTtl,
              refreshTokenTtl: issuing.refreshTokenTtl,
              sessionMaxAge: issuing.sessionMaxAge,
              refreshReuseGraceSeconds: issuing.refreshReuseGraceSeconds,
              clock,
              passwordHasher: issuing.passwordHasher,
              sessionRevocations: invalidation,
              securityEvents,
            });
            return withSignInThrottle(service, throttle);
          }),
        );
        exported.push(AUTH_SERVICE);
        if (options.accounts) exported.push(ACCOUNT_SERVICE);
        if (options.browser !== undefined) {
          providers.push(
            defineFactory(BROWSER_SESSIONS, [AUTH_SERVICE, REFRESH_TOKEN_STORE, AUTH_RUNTIME], (service, refreshTokens, runtime) => {
              if (runtime.browser === undefined) throw new Error('browser sessions: the auth runtime has no browser credentials');
              return new BrowserSessions(service, tracedStore(refreshTokens, 'RefreshTokenStore'), runtime.browser, clock);
            }),
          );
          exported.push(BROWSER_SESSIONS);
        }
      }
      return defineModule({
        name: 'AuthModule',
        global: options.global ?? false,
        imports: [...(issuing?.imports ?? []), ...(apiKeys?.imports ?? []), ...(issuing && options.signInThrottle ? (options.signInThrottle.imports ?? []) : []), ...(options.accounts?.imports ?? [])],
        providers,
        exports: exported as never,
        appGuards: options.protectAllRoutes ? [AuthGuard] : [],
      });
    },
  };

  return Object.freeze({ AuthModule, JwtAuthGuard, AuthGuard, createRolesGuard, getCurrentUser, getCurrentApiKey, AUTH_SERVICE, JWKS_HEALTH_CHECK, CREDENTIAL_REVOCATION, CREDENTIAL_INVALIDATION: CREDENTIAL_REVOCATION, ACCOUNT_SERVICE, BROWSER_SESSIONS, SECURITY_EVENTS });
}
