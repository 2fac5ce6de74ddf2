import type { z } from 'zod';
import { systemClock, type RequestContext } from '../internal.js';
import { ApiKeyAuthenticator, type ApiKeyStore } from './api-keys/index.js';
import type { AuthModuleOptions } from './auth-options.js';
import { bearerFailure, bearerTokenOf } from './bearer-token.js';
import { createBearerTokenVerifier, readTolerance, type BearerTokenVerifier, type VerificationResult } from './jwt/index.js';
import { recordAuthenticated, recordTokenRefusal, tracedStore } from './auth-telemetry.js';
import { DEFAULT_ACCESS_TOKEN_TTL_SECONDS } from './issuing/index.js';
import { SessionRevocations } from './session-revocations.js';

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
  /**
   * The longest an own access token issued now can still be accepted (ms): its lifetime plus the
   * clock tolerance. A session revoked now must be remembered this long.
   */
  readonly sessionLifetimeMs: number;
  /** Refuses the own access tokens of one session from now until `untilMs`, and drops their cached verifications. */
  revokeSession(sessionId: string, untilMs: number): void;
  /** Refuses, until `untilMs`, the own access tokens of `subject`'s sessions started before `cutoffMs`, and drops their cached verifications. */
  revokeSubject(subject: string, cutoffMs: number, untilMs: number): void;
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
  const revocations = new SessionRevocations(clock);
  // Outside issuers' tokens are routed by their `iss`, which never equals the own issuer: only
  // the app's own tokens belong to sessions it can revoke.
  const ownIssuer = options.issuer;
  const isOwnRevoked = (payload: Readonly<Record<string, unknown>>) => payload.iss === ownIssuer && revocations.isRevoked(payload);
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
    sessionLifetimeMs: ((options.issuing?.accessTokenTtl ?? DEFAULT_ACCESS_TOKEN_TTL_SECONDS) + readTolerance(options.clockToleranceSeconds)) * 1000,
    revokeSession(sessionId, untilMs) {
      revocations.revokeSession(sessionId, untilMs);
      verifier.forget(isOwnRevoked);
    },
    revokeSubject(subject, cutoffMs, untilMs) {
      revocations.revokeSubject(subject, cutoffMs, untilMs);
      verifier.forget(isOwnRevoked);
    },
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
    // After verification, on cache hits too: a revoked session's tokens still verify.
    if (isOwnRevoked(result.payload)) {
      recordTokenRefusal('revoked');
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
