import type { z } from 'zod';
import type { Guard } from '../internal.js';
import { checkedClock, systemClock } from '../internal.js';
import { defineModule, type ModuleDefinition } from '../internal.js';
import { defineFactory, defineProvider, type ProviderInput } from '../internal.js';
import { createToken, type ClassToken, type Token } from '../internal.js';
import { ForbiddenException, ServiceUnavailableException, UnauthorizedException } from '../internal.js';
import { createStateKey, type RequestContext } from '../internal.js';
import { readRouteMetadata } from '../internal.js';
import { readAccessRules, SCOPES_KEY, type AccessRules } from './auth-metadata.js';
import { ApiKeyAuthenticator, checkScopes, type ApiKeyStore, type AuthenticatedApiKey } from './api-keys/index.js';
import type { AuthModuleOptions, StoreClass } from './auth-options.js';
import { bearerFailure, readBearerToken } from './bearer-token.js';
import { TokenIssuingService, type CredentialStore, type RefreshTokenStore, type TokenPair } from './issuing/index.js';
import { getDummyPasswordHash } from './password/index.js';
import { assertSecretLength, createBearerTokenVerifier, readTolerance, readTrustedIssuers, createTokenSigner, type BearerTokenVerifier, type VerificationResult } from './jwt/index.js';

/**
 * The programmatic auth operations, resolved through the `AUTH_SERVICE` token.
 *
 * @example
 * const pair = await auth.signIn('alice@acme.test', password);
 */
export interface AuthService {
  signIn(identifier: string, password: string): Promise<TokenPair>;
  refresh(refreshToken: string): Promise<TokenPair>;
  signOut(refreshToken: string): Promise<void>;
  issueTokens(subject: string): Promise<TokenPair>;
  revokeAllSessions(subject: string): Promise<void>;
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
}

/** What the guards share: the verifier and the claims schema bound to this auth module. */
interface AuthRuntime<Claims> {
  readonly verifier: BearerTokenVerifier;
  readonly apiKeys: ApiKeyAuthenticator<Claims> | undefined;
  readonly scopedRoutesOnly: boolean;
  /** The claims of the request's bearer token; a promise only when an outside issuer's signature must be checked. */
  authenticateBearer(ctx: RequestContext): Claims | Promise<Claims>;
}

/** The one answer for every API-key failure; it never says which check failed. */
function apiKeyFailure(): UnauthorizedException {
  return new UnauthorizedException('Invalid API key');
}

function toProvider<T>(token: Token<T>, store: StoreClass<T>): ProviderInput {
  if (typeof store === 'function') return { provide: token, useClass: store as never };
  if ('useExisting' in store) return { provide: token, useExisting: store.useExisting };
  return { provide: token, useClass: store.useClass, inject: store.inject ?? [] };
}

/**
 * Requires the claims' `roles` claim to hold at least one of `required` (403 otherwise). The one
 * role check behind both `AuthGuard`'s `Roles(...)` and `createRolesGuard(...)`.
 */
function requireOneOf(claims: unknown, required: readonly string[]): void {
  const roles = (claims as { roles?: unknown } | null)?.roles;
  if (!Array.isArray(roles) || !roles.some((role) => required.includes(role as string))) {
    throw new ForbiddenException('Missing a required role');
  }
}

/**
 * Everything the auth module offers, bound to one claims schema. Call it once per app.
 *
 * @example
 * const Claims = z.object({ sub: z.string(), roles: z.array(z.string()) });
 * export const { AuthModule, AuthGuard, JwtAuthGuard, createRolesGuard, getCurrentUser, AUTH_SERVICE } = defineAuthModule(Claims);
 */
export function defineAuthModule<S extends z.ZodType>(claimsSchema: S): AuthDefinitions<z.output<S>> {
  type Claims = z.output<S>;
  const CURRENT_USER = createStateKey<Claims>('auth:current-user');
  const CURRENT_API_KEY = createStateKey<AuthenticatedApiKey>('auth:current-api-key');
  const API_KEY_STORE = createToken<ApiKeyStore>('ApiKeyStore');
  const AUTH_RUNTIME = createToken<AuthRuntime<Claims>>('AuthRuntime');
  const AUTH_SERVICE = createToken<AuthService>('AUTH_SERVICE');
  const CREDENTIAL_STORE = createToken<CredentialStore<Claims>>('CredentialStore');
  const REFRESH_TOKEN_STORE = createToken<RefreshTokenStore>('RefreshTokenStore');

  /**
   * Accepts `Authorization: Bearer <access token>` only (never an API key, on purpose) and puts
   * the validated claims in the context. Every failure is the same 401.
   */
  class JwtAuthGuard implements Guard {
    constructor(readonly runtime: AuthRuntime<Claims>) {}
    canActivate(ctx: RequestContext): boolean | Promise<boolean> {
      return admitBearer(this.runtime, ctx, undefined);
    }
  }

  function requireRole(claims: Claims, rules: AccessRules | undefined): void {
    if (rules?.roles) requireOneOf(claims, rules.roles);
  }

  /**
   * Authenticates the bearer token, puts its claims in the context and, given rules, requires a
   * role. Synchronous unless an outside issuer's signature must be checked (not cached yet).
   */
  function admitBearer(runtime: AuthRuntime<Claims>, ctx: RequestContext, rules: AccessRules | undefined): boolean | Promise<boolean> {
    const claims = runtime.authenticateBearer(ctx);
    const admit = (settled: Claims): boolean => {
      ctx.set(CURRENT_USER, settled);
      // Tokens are never held to scopes: scopes limit what a machine key may do.
      requireRole(settled, rules);
      return true;
    };
    return claims instanceof Promise ? claims.then(admit) : admit(claims);
  }

  async function authenticateApiKey(runtime: AuthRuntime<Claims>, apiKeys: ApiKeyAuthenticator<Claims>, ctx: RequestContext, key: string, rules: AccessRules): Promise<boolean> {
    const result = await apiKeys.authenticate({
      key,
      socketAddress: ctx.clientAddress,
      forwardedFor: ctx.header('x-forwarded-for'),
    });
    if (!result.ok) {
      // Fail closed: a store that cannot answer never lets the request through.
      if (result.status === 503) throw new ServiceUnavailableException('API key verification is unavailable');
      throw apiKeyFailure();
    }
    ctx.set(CURRENT_USER, result.claims);
    ctx.set(CURRENT_API_KEY, result.apiKey);
    requireRole(result.claims, rules);
    const route = ctx.route;
    const verdict = checkScopes({
      // SCOPES_KEY is a `replace` key: the route's list replaces its controller's.
      routeScopes: route && readRouteMetadata(route, SCOPES_KEY),
      controllerScopes: undefined,
      isPublic: false,
      credential: { kind: 'apiKey', scopes: result.apiKey.scopes },
      scopedRoutesOnly: runtime.scopedRoutesOnly,
    });
    if (verdict !== 'allow') throw new ForbiddenException('The API key lacks a required scope');
    return true;
  }

  /**
   * Authenticates every route not marked `Public()`, with an API key when the request carries
   * `x-api-key` (and keys are configured; the Authorization header is then not looked at), else
   * with a bearer token. Then enforces `Roles(...)` (403) and, for keys, `RequireScopes(...)`
   * (403). Apply it with `UseGuards(AuthGuard)` or everywhere with `protectAllRoutes: true`.
   */
  class AuthGuard implements Guard {
    constructor(readonly runtime: AuthRuntime<Claims>) {}

    canActivate(ctx: RequestContext): boolean | Promise<boolean> {
      const rules = readAccessRules(ctx.route);
      if (rules.isPublic) return true;
      const apiKeys = this.runtime.apiKeys;
      if (apiKeys !== undefined) {
        const key = ctx.header('x-api-key');
        if (key !== null) return authenticateApiKey(this.runtime, apiKeys, ctx, key, rules);
      }
      return admitBearer(this.runtime, ctx, rules);
    }
  }

  /**
   * A guard class requiring at least one of `roles`. It reads the user put in the context by
   * `JwtAuthGuard`, so list it after that guard; without a user it answers 401, with a user
   * lacking the roles 403. It has no dependencies, so any module can use it.
   *
   * @example
   * get('/admin', { guards: [JwtAuthGuard, createRolesGuard('admin')] }, handler);
   */
  function createRolesGuard(...roles: [string, ...string[]]): new () => Guard {
    const required = Object.freeze([...roles]);
    return class RolesGuard implements Guard {
      canActivate(ctx: RequestContext): boolean {
        const user = ctx.get(CURRENT_USER);
        if (user === undefined) throw new UnauthorizedException('Authentication required', undefined, { 'www-authenticate': 'Bearer' });
        requireOneOf(user, required);
        return true;
      }
    };
  }

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
   * createAccessLog({ fields: (ctx) => ({ keyId: getCurrentApiKey(ctx)?.id }) });
   */
  function getCurrentApiKey(ctx: Pick<RequestContext, 'get'> | undefined): AuthenticatedApiKey | undefined {
    return ctx?.get(CURRENT_API_KEY);
  }

  function createRuntime(options: AuthModuleOptions<Claims>, apiKeyStore: ApiKeyStore | undefined): AuthRuntime<Claims> {
    // forRoot has checked it already and passes the checked clock in.
    const clock = options.clock ?? systemClock;
    const verifier = createBearerTokenVerifier({
      own: {
        secret: options.secret,
        algorithm: options.algorithm ?? 'HS256',
        issuer: options.issuer,
        audience: options.audience,
        requireAccessTokenType: options.requireAccessTokenType,
      },
      trustedIssuers: options.trustedIssuers,
      clockToleranceSeconds: options.clockToleranceSeconds,
      clock,
    });
    // The verifier's cache hands back the same payload object for a repeated token, so the
    // schema runs once per token rather than once per request.
    const parsed = new WeakMap<object, Claims>();
    const keys = options.apiKeys;
    const apiKeys =
      keys && apiKeyStore
        ? new ApiKeyAuthenticator<Claims>({
            store: apiKeyStore,
            claimsSchema: claimsSchema as z.ZodType<Claims>,
            clock,
            cacheSeconds: keys.cacheSeconds ?? 0,
            lastUsedIntervalSeconds: keys.lastUsedIntervalSeconds ?? 300,
            clientIp: keys.clientIp,
          })
        : undefined;
    return {
      verifier,
      apiKeys,
      scopedRoutesOnly: keys?.scopedRoutesOnly ?? false,
      authenticateBearer(ctx) {
        const token = readBearerToken(ctx.header('authorization'));
        if (token === undefined) throw bearerFailure();
        const result = verifier.verify(token);
        return result instanceof Promise ? result.then(claimsOf) : claimsOf(result);
      },
    };

    /** Own and outside tokens alike: the claims schema decides, and any failure is the one 401. */
    function claimsOf(result: VerificationResult): Claims {
      if (!result.ok) throw bearerFailure();
      const cached = parsed.get(result.payload);
      if (cached !== undefined) return cached;
      const claims = claimsSchema.safeParse(result.payload);
      if (!claims.success) throw bearerFailure();
      parsed.set(result.payload, claims.data);
      return claims.data;
    }
  }

  /** The runtime with its outside issuers' PEM keys imported, so a bad key fails the boot. */
  async function startRuntime(options: AuthModuleOptions<Claims>, apiKeyStore: ApiKeyStore | undefined): Promise<AuthRuntime<Claims>> {
    const runtime = createRuntime(options, apiKeyStore);
    await runtime.verifier.prepare();
    return runtime;
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
      readTrustedIssuers(options.trustedIssuers, options.issuer);
      readTolerance(options.clockToleranceSeconds);
      // Checked here (a broken clock fails forRoot) and on every reading (fails closed later).
      const clock = checkedClock(options.clock ?? systemClock);
      const checked: AuthModuleOptions<Claims> = { ...options, clock };
      const apiKeys = options.apiKeys;
      const providers: ProviderInput[] = [
        apiKeys
          ? defineFactory(AUTH_RUNTIME, [API_KEY_STORE], (store) => startRuntime(checked, store))
          : defineFactory(AUTH_RUNTIME, [], () => startRuntime(checked, undefined)),
        defineProvider(JwtAuthGuard, [AUTH_RUNTIME]),
        defineProvider(AuthGuard, [AUTH_RUNTIME]),
      ];
      if (apiKeys) providers.push(toProvider(API_KEY_STORE, apiKeys.store));
      const exported: unknown[] = [JwtAuthGuard, AuthGuard, AUTH_RUNTIME];
      const issuing = options.issuing;
      if (issuing) {
        const signer = createTokenSigner({ secret: options.secret, algorithm, issuer: options.issuer, audience: options.audience, clock });
        const accessTokenTtl = issuing.accessTokenTtl ?? 900;
        providers.push(
          toProvider(CREDENTIAL_STORE, issuing.credentialStore),
          toProvider(REFRESH_TOKEN_STORE, issuing.refreshTokenStore),
          defineFactory(AUTH_SERVICE, [CREDENTIAL_STORE, REFRESH_TOKEN_STORE], async (credentialStore, refreshTokenStore) => {
            // Compute the dummy hash at boot: computed lazily, the first sign-in for an unknown
            // account would take a hash longer than the others and tell that it is unknown.
            await getDummyPasswordHash(issuing.passwordHasher);
            return new TokenIssuingService<Claims>({
              claimsSchema,
              credentialStore,
              refreshTokenStore,
              accessTokens: {
                sign: async (claims, subject) => signer.sign({ ...claims, sub: subject }, { ttlSeconds: accessTokenTtl, type: 'access' }),
              },
              accessTokenTtl,
              refreshTokenTtl: issuing.refreshTokenTtl,
              refreshReuseGraceSeconds: issuing.refreshReuseGraceSeconds,
              clock,
              passwordHasher: issuing.passwordHasher,
            });
          }),
        );
        exported.push(AUTH_SERVICE);
      }
      return defineModule({
        name: 'AuthModule',
        global: options.global ?? false,
        imports: [...(issuing?.imports ?? []), ...(apiKeys?.imports ?? [])],
        providers,
        exports: exported as never,
        appGuards: options.protectAllRoutes ? [AuthGuard] : [],
      });
    },
  };

  return Object.freeze({ AuthModule, JwtAuthGuard, AuthGuard, createRolesGuard, getCurrentUser, getCurrentApiKey, AUTH_SERVICE });
}
