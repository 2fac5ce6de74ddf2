import { ForbiddenException, ServiceUnavailableException, UnauthorizedException, type Guard, type RequestContext, type StateKey } from '../../index.js';
import { readAccessRules, type AccessRules } from '../../internal/access-rules.js';
import { checkScopes, type ApiKeyAuthenticator, type AuthenticatedApiKey } from '../credentials/api-keys/index.js';
import type { AuthRuntime } from './auth-runtime.js';
import { bearerFailure } from '../credentials/jwt/bearer-token.js';
import { recordTokenRefusal } from '../shared/auth-telemetry.js';
import { PRINCIPAL } from '../federation/principal.js';
import { checkRecordingRefusal } from '../events/access-refused.js';

/** The one answer for every API-key failure; it never says which check failed. */
function apiKeyFailure(): UnauthorizedException {
  return new UnauthorizedException('Invalid API key');
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
 * Where one auth module's guards put the caller: the claims, and the API key when one was used.
 *
 * @example
 * const keys: AuthStateKeys<Claims> = { currentUser: createStateKey('auth:current-user'), currentApiKey: createStateKey('auth:current-api-key') };
 */
export interface AuthStateKeys<Claims> {
  readonly currentUser: StateKey<Claims>;
  readonly currentApiKey: StateKey<AuthenticatedApiKey>;
}

/** The guard classes of one auth module (see `defineAuthModule`). */
export interface AuthGuards<Claims> {
  readonly JwtAuthGuard: new (runtime: AuthRuntime<Claims>) => Guard;
  readonly AuthGuard: new (runtime: AuthRuntime<Claims>) => Guard;
  readonly createRolesGuard: (...roles: [string, ...string[]]) => new () => Guard;
  readonly AccountGuard: new (runtime: AuthRuntime<Claims>) => Guard;
}

/**
 * The guards of one auth module, writing the caller into `keys`: `JwtAuthGuard` (bearer tokens
 * only), `AuthGuard` (token or API key, then roles and scopes) and `createRolesGuard`.
 *
 * @example
 * const { JwtAuthGuard, AuthGuard, createRolesGuard } = createAuthGuards<Claims>(keys);
 */
export function createAuthGuards<Claims>(keys: AuthStateKeys<Claims>): AuthGuards<Claims> {
  const CURRENT_USER = keys.currentUser;
  const CURRENT_API_KEY = keys.currentApiKey;

  /**
   * Accepts `Authorization: Bearer <access token>` only (never an API key, on purpose) and puts
   * the validated claims in the context. Every failure is the same 401. With `browser`
   * configured, a request without `Authorization` may bring the token in the access-token
   * cookie instead, and must then pass the CSRF checks on unsafe methods (403).
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
    // With browser sessions, a request without a credential header may bring the access token
    // in its cookie; it is then held to the CSRF checks (after authentication, which the
    // session-bound CSRF token needs).
    const browser = runtime.browser;
    const cookieToken = browser?.accessTokenOf(ctx);
    const claims = cookieToken === undefined ? runtime.authenticateBearer(ctx) : runtime.authenticateBearer(ctx, cookieToken);
    const admit = (settled: Claims): boolean => {
      // Refusals of an authenticated person are security events (ASVS 16.3.2).
      const caller = () => ({ subject: runtime.tokenFacts(settled)?.subject });
      if (cookieToken !== undefined) checkRecordingRefusal(runtime.securityEvents, ctx, 'csrf', caller, () => browser?.checkCookieRequest(ctx, cookieToken));
      ctx.set(CURRENT_USER, settled);
      // Tokens are never held to scopes: scopes limit what a machine key may do.
      const roles = rules?.roles;
      if (roles) checkRecordingRefusal(runtime.securityEvents, ctx, 'role', caller, () => requireOneOf(settled, roles));
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
    ctx.set(PRINCIPAL, Object.freeze({ kind: 'apiKey', keyId: result.apiKey.id }));
    // A socket opened with the key closes when the key expires.
    runtime.expireSocketAt(ctx, result.expiresAtMs);
    const caller = { keyId: result.apiKey.id };
    checkRecordingRefusal(runtime.securityEvents, ctx, 'role', caller, () => requireRole(result.claims, rules));
    const verdict = checkScopes({ rules, credential: { kind: 'apiKey', scopes: result.apiKey.scopes }, scopedRoutesOnly: runtime.scopedRoutesOnly });
    checkRecordingRefusal(runtime.securityEvents, ctx, 'scope', caller, () => {
      if (verdict !== 'allow') throw new ForbiddenException('The API key lacks a required scope');
    });
    return true;
  }

  /**
   * Authenticates every route not marked `Public()`, with an API key when the request carries
   * `x-api-key` (and keys are configured; the Authorization header is then not looked at), else
   * with a bearer token (or, with `browser`, the access-token cookie and the CSRF checks). Then enforces `Roles(...)` (403) and, for keys, `RequireScopes(...)`
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
   * For routes that reach a local account (its sessions, password, e-mail, linked identities):
   * accepts only the app's own access tokens (by header, or by cookie with the CSRF checks), and
   * answers an outside issuer's token with the same 401 as a bad token. An outside provider's
   * `sub` names the provider's user, never the local account with that id (ASVS 6.8.1); an API
   * key is not a person's session either (it is refused by never being read). Read the account
   * with `getAccountId(ctx)`. `Roles(...)` on the route are enforced as by `AuthGuard`.
   */
  class AccountGuard implements Guard {
    constructor(readonly runtime: AuthRuntime<Claims>) {}
    canActivate(ctx: RequestContext): boolean | Promise<boolean> {
      const admitted = admitBearer(this.runtime, ctx, readAccessRules(ctx.route));
      const own = (): boolean => {
        const principal = ctx.get(PRINCIPAL);
        if (principal?.kind !== 'session' || principal.subject === undefined) {
          recordTokenRefusal('not_own_session');
          throw bearerFailure();
        }
        return true;
      };
      return admitted instanceof Promise ? admitted.then(own) : own();
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

  return { JwtAuthGuard, AuthGuard, createRolesGuard, AccountGuard };
}
