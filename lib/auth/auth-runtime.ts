import type { z } from 'zod';
import { systemClock, type RequestContext } from '../internal.js';
import { ApiKeyAuthenticator, type ApiKeyStore } from './api-keys/index.js';
import type { AuthModuleOptions } from './auth-options.js';
import { bearerFailure, bearerTokenOf } from './bearer-token.js';
import { createBearerTokenVerifier, type BearerTokenVerifier, type VerificationResult } from './jwt/index.js';
import { recordAuthenticated, recordTokenRefusal, tracedStore } from './auth-telemetry.js';

/**
 * What the guards of one auth module share: the bearer-token verifier, the API-key authenticator
 * (when keys are configured) and the claims schema, bound together at boot.
 *
 * @example
 * const claims = await runtime.authenticateBearer(ctx); // throws the one 401 on any failure
 */
export interface AuthRuntime<Claims> {
  readonly verifier: BearerTokenVerifier;
  readonly apiKeys: ApiKeyAuthenticator<Claims> | undefined;
  readonly scopedRoutesOnly: boolean;
  /** The claims of the request's bearer token; a promise only when an outside issuer's signature must be checked. */
  authenticateBearer(ctx: RequestContext): Claims | Promise<Claims>;
}

/**
 * The runtime for `forRoot`'s options, with its outside issuers' PEM keys imported, so a bad key
 * fails the boot.
 *
 * @example
 * defineFactory(AUTH_RUNTIME, [], () => startAuthRuntime(Claims, options, undefined));
 */
export async function startAuthRuntime<Claims>(claimsSchema: z.ZodType<Claims>, options: AuthModuleOptions<Claims>, apiKeyStore: ApiKeyStore | undefined): Promise<AuthRuntime<Claims>> {
  const runtime = createAuthRuntime(claimsSchema, options, apiKeyStore);
  await runtime.verifier.prepare();
  return runtime;
}

function createAuthRuntime<Claims>(claimsSchema: z.ZodType<Claims>, options: AuthModuleOptions<Claims>, apiKeyStore: ApiKeyStore | undefined): AuthRuntime<Claims> {
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
          store: tracedStore(apiKeyStore, 'ApiKeyStore'),
          claimsSchema,
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
      const token = bearerTokenOf(ctx);
      if (token === undefined) {
        recordTokenRefusal('missing');
        throw bearerFailure();
      }
      const result = verifier.verify(token);
      return result instanceof Promise ? result.then(claimsOf) : claimsOf(result);
    },
  };

  /** Own and outside tokens alike: the claims schema decides, and any failure is the one 401. */
  function claimsOf(result: VerificationResult): Claims {
    if (!result.ok) {
      recordTokenRefusal(result.reason);
      throw bearerFailure();
    }
    const cached = parsed.get(result.payload);
    if (cached !== undefined) {
      recordAuthenticated('bearer');
      return cached;
    }
    const claims = claimsSchema.safeParse(result.payload);
    if (!claims.success) {
      recordTokenRefusal('claims_schema');
      throw bearerFailure();
    }
    parsed.set(result.payload, claims.data);
    recordAuthenticated('bearer');
    return claims.data;
  }
}
