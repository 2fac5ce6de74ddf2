import { ForbiddenException, UnauthorizedException, type ClassToken, type Guard, type RequestContext, type Token } from '../../index.js';
import { DEFINITION } from '../../internal/definitions.js';
import { integerAtLeast } from '../../internal/primitives.js';
import type { AuthStateKeys } from './auth-guards.js';
import type { AuthRuntime } from './auth-runtime.js';
import { reauthenticationRequired, authenticatedWithin } from '../sessions/state/recent-auth.js';
import { checkRecordingRefusal } from '../events/access-refused.js';

/**
 * Options of `requireRecentAuth`.
 *
 * @example
 * const options: RecentAuthOptions = { withinSeconds: 300 };
 */
export interface RecentAuthOptions {
  /** How long ago the person may have signed in, in whole seconds (at least 1); default the module's `recentAuthSeconds` (600). */
  readonly withinSeconds?: number;
}

/**
 * Builds `requireRecentAuth` for one auth module: guard classes that let a request through only
 * when a person signed in recently (see `authenticatedAtOf` for where the time comes from).
 *
 * @example
 * const requireRecentAuth = createRecentAuthGuards(keys, AUTH_RUNTIME);
 * post('/password/change', { guards: [JwtAuthGuard, requireRecentAuth()] }, handler);
 */
export function createRecentAuthGuards<Claims>(keys: AuthStateKeys<Claims>, runtimeToken: Token<AuthRuntime<Claims>>): (options?: RecentAuthOptions) => ClassToken<Guard> {
  return function requireRecentAuth(options: RecentAuthOptions = {}): ClassToken<Guard> {
    const withinSeconds = options.withinSeconds === undefined ? undefined : integerAtLeast(options.withinSeconds, 1, 'requireRecentAuth withinSeconds');

    /**
     * List it after the guard that authenticates (`JwtAuthGuard`, or `AuthGuard` under
     * `protectAllRoutes`): it reads the caller they recorded, and fails closed without one (401).
     * An API key is refused (403: a machine never signed in); a person whose sign-in is older than
     * the limit gets the `reauthentication_required` 401.
     */
    class RecentAuthGuard implements Guard {
      // Built by the DI container wherever it is listed, with the module's runtime (exported by the auth module).
      static [DEFINITION]() {
        return Object.freeze({ kind: 'class', provide: RecentAuthGuard, useClass: RecentAuthGuard, inject: [runtimeToken] });
      }

      constructor(readonly runtime: AuthRuntime<Claims>) {}

      canActivate(ctx: RequestContext): boolean {
        requireRecentAuthentication(ctx, keys, this.runtime, withinSeconds ?? this.runtime.recentAuthSeconds);
        return true;
      }
    }
    return RecentAuthGuard;
  };
}

/**
 * The module's recent-authentication rule for one request, as `RecentAuthGuard` applies it and
 * the outside sign-in's linking and unlinking do: an API key is refused (403: a machine never
 * signed in); no authenticated caller, 401; a person whose authentication is older than
 * `withinSeconds` (or who cannot tell when), the `reauthentication_required` 401.
 *
 * @example
 * requireRecentAuthentication(ctx, keys, runtime, runtime.recentAuthSeconds);
 */
export function requireRecentAuthentication<Claims>(ctx: RequestContext, keys: AuthStateKeys<Claims>, runtime: Pick<AuthRuntime<Claims>, 'tokenFacts' | 'clock' | 'securityEvents'>, withinSeconds: number): void {
  const apiKey = ctx.get(keys.currentApiKey);
  if (apiKey !== undefined) {
    // Refusals of an authenticated caller are security events (ASVS 16.3.2); no caller, no event.
    checkRecordingRefusal(runtime.securityEvents, ctx, 'recent-auth', { keyId: apiKey.id }, () => {
      throw new ForbiddenException('An API key cannot do this: it needs a person who signed in recently');
    });
  }
  const claims = ctx.get(keys.currentUser);
  if (claims === undefined) throw new UnauthorizedException('Authentication required', undefined, { 'www-authenticate': 'Bearer' });
  const facts = runtime.tokenFacts(claims);
  checkRecordingRefusal(runtime.securityEvents, ctx, 'recent-auth', () => ({ subject: facts?.subject }), () => {
    if (!authenticatedWithin(facts, runtime.clock.now(), withinSeconds)) throw reauthenticationRequired(withinSeconds);
  });
}
