import type { z } from 'zod';
import { createStateKey, CREDENTIAL_EXPIRES_AT, systemClock, type Clock, type RequestContext, type StateKey, type WebSockets } from '../../index.js';
import type { CompiledOriginPolicy } from '../../internal/client-policies.js';
import { ApiKeyAuthenticator, type ApiKeyStore, type AuthenticatedApiKey } from '../credentials/api-keys/index.js';
import type { AuthModuleOptions } from './auth-options.js';
import { bearerFailure, bearerTokenOf } from '../credentials/jwt/bearer-token.js';
import { createBearerTokenVerifier, readTolerance, type BearerTokenVerifier, type VerificationResult } from '../credentials/jwt/index.js';
import { recordAuthenticated, recordTokenRefusal, tracedStore } from '../shared/auth-telemetry.js';
import { DEFAULT_ACCESS_TOKEN_TTL_SECONDS } from '../sessions/issuing/index.js';
import { SessionRevocations } from '../sessions/state/session-revocations.js';
import { BrowserCredentials } from '../sessions/browser/browser-credentials.js';
import { authenticatedAtOf, DEFAULT_RECENT_AUTH_SECONDS } from '../sessions/state/recent-auth.js';
import type { AuthenticatedToken } from '../sessions/state/authenticated-token.js';

import { PRINCIPAL, principalOfPayload, type Principal, isOutsideToken } from '../federation/principal.js';
import { readTrustedIssuers } from '../credentials/jwt/trusted-issuer-options.js';
import { NO_SECURITY_EVENTS, type SecurityEventSink } from '../events/security-event.js';

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
  /** Refuses the own access tokens of one session from now until `untilMs`, drops their cached verifications and closes their sockets. */
  revokeSession(sessionId: string, untilMs: number): void;
  /** Refuses, until `untilMs`, the own access tokens of `subject`'s sessions started before `cutoffMs`, drops their cached verifications and closes their sockets. */
  revokeSubject(subject: string, cutoffMs: number, untilMs: number): void;
  /** Refuses, until `untilMs`, the own access tokens of every session started before `cutoffMs` (everyone's), drops their cached verifications and closes their sockets. */
  revokeEveryone(cutoffMs: number, untilMs: number): void;
  /** Drops the API key's cached record and closes the sockets it opened. */
  revokeApiKey(id: string): void;
  /** The ids of the API keys that hold open sockets now (to check them against the store). */
  apiKeysHoldingSockets(): Set<string>;
  /** On a WebSocket upgrade: the socket closes when the credential expires (`expiresAtMs` on the auth clock). */
  expireSocketAt(ctx: RequestContext, expiresAtMs: number): void;
  /** The claims of the request's bearer token (or of `token`, e.g. from a cookie); a promise only when an outside issuer's signature must be checked. */
  authenticateBearer(ctx: RequestContext, token?: string): Claims | Promise<Claims>;
  /** The cookies and CSRF checks of browser sessions, when `browser` is configured. */
  readonly browser: BrowserCredentials | undefined;
  /** The auth module's clock (checked at `forRoot`). */
  readonly clock: Clock;
  /** How recent a sign-in `requireRecentAuth` accepts by default: `recentAuthSeconds`, default 600. */
  readonly recentAuthSeconds: number;
  /**
   * What the verified bearer token behind `claims` (the object the guards put in the context) says
   * of its sign-in; undefined for claims that came from an API key, or from anything else.
   */
  tokenFacts(claims: Claims): AuthenticatedToken | undefined;
  /** Where the guards record the authenticated callers they refuse (`access.refused`, ASVS 16.3.2). */
  readonly securityEvents: SecurityEventSink;
}

/**
 * The runtime for `forRoot`'s options, with its outside issuers' PEM keys imported, so a bad key
 * fails the boot.
 *
 * @example
 * defineFactory(AUTH_RUNTIME, [WEB_SOCKETS, ORIGIN_POLICY], (webSockets, origins) => startAuthRuntime(Claims, options, undefined, { webSockets, currentApiKey }, origins));
 */
export async function startAuthRuntime<Claims>(
  claimsSchema: z.ZodType<Claims>,
  options: AuthModuleOptions<Claims>,
  apiKeyStore: ApiKeyStore | undefined,
  sockets: SocketLinks,
  origins: CompiledOriginPolicy,
  securityEvents: SecurityEventSink = NO_SECURITY_EVENTS,
): Promise<AuthRuntime<Claims>> {
  const runtime = createAuthRuntime(claimsSchema, options, apiKeyStore, sockets, origins, securityEvents);
  await runtime.verifier.prepare();
  return runtime;
}

/**
 * What ties credentials to the sockets they opened: the app's WebSockets, and the state key the
 * guards record the authenticating API key under.
 */
export interface SocketLinks {
  readonly webSockets: WebSockets;
  readonly currentApiKey: StateKey<AuthenticatedApiKey>;
}

/**
 * The verified payload of the own token that opened a WebSocket, kept on the upgrade's context
 * (WebSocket routes only) so that a later revocation can tell which sockets it ends, by the same
 * rule that refuses the token.
 */
const SOCKET_TOKEN_PAYLOAD = createStateKey<Readonly<Record<string, unknown>>>('auth:socket-token-payload');

function createAuthRuntime<Claims>(claimsSchema: z.ZodType<Claims>, options: AuthModuleOptions<Claims>, apiKeyStore: ApiKeyStore | undefined, sockets: SocketLinks, origins: CompiledOriginPolicy, securityEvents: SecurityEventSink): AuthRuntime<Claims> {
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
  // One record per verified token: its claims (the schema ran once), its principal and what it
  // says of its sign-in, made together by one "own token" rule. The verifier's cache hands back
  // the same payload object for a repeated token, so this is computed once per token rather than
  // once per request.
  const verified = new WeakMap<object, VerifiedToken<Claims>>();
  // The same records, found by the claims object the guards hand on (an index, not a second record).
  const byClaims = new WeakMap<object, VerifiedToken<Claims>>();
  // Which tokens are an outside issuer's, by the verifier's own routing rule: the principal says
  // so, and a provider's subject never passes for a local account's (ASVS 6.8.1).
  const outsideIssuers: ReadonlySet<string> = new Set(readTrustedIssuers(options.trustedIssuers, options.issuer).map((issuer) => issuer.issuer));
  // One rule for "own" (`isOutsideToken`, the verifier's routing), read by the principal, the
  // recent-auth facts and revocation. Only the app's own tokens belong to sessions it can revoke.
  const isOwnToken = (payload: Readonly<Record<string, unknown>>) => !isOutsideToken(payload, outsideIssuers);
  const isOwnRevoked = (payload: Readonly<Record<string, unknown>>) => isOwnToken(payload) && revocations.isRevoked(payload);
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
      // Read again and again while the bus is down: only news closes anything.
      if (revocations.revokeSession(sessionId, untilMs)) sessionsEnded();
    },
    revokeSubject(subject, cutoffMs, untilMs) {
      revocations.revokeSubject(subject, cutoffMs, untilMs);
      sessionsEnded();
    },
    revokeEveryone(cutoffMs, untilMs) {
      revocations.revokeEveryone(cutoffMs, untilMs);
      sessionsEnded();
    },
    revokeApiKey(id) {
      apiKeys?.forget(id);
      sockets.webSockets.closeWhere((ctx) => ctx.get(sockets.currentApiKey)?.id === id, 1008, 'API key revoked');
    },
    apiKeysHoldingSockets() {
      const ids = new Set<string>();
      for (const ctx of sockets.webSockets.contexts()) {
        const id = ctx.get(sockets.currentApiKey)?.id;
        if (id !== undefined) ids.add(id);
      }
      return ids;
    },
    expireSocketAt,
    clock,
    recentAuthSeconds: options.recentAuthSeconds ?? DEFAULT_RECENT_AUTH_SECONDS,
    securityEvents,
    tokenFacts(claims) {
      return typeof claims === 'object' && claims !== null ? byClaims.get(claims)?.facts : undefined;
    },
    browser: options.browser === undefined ? undefined : new BrowserCredentials(options.browser, options.secret, origins),
    authenticateBearer(ctx, given) {
      const token = given ?? bearerTokenOf(ctx);
      if (token === undefined) {
        recordTokenRefusal('missing');
        throw bearerFailure();
      }
      const result = verifier.verify(token);
      return result instanceof Promise ? result.then((settled) => claimsFor(ctx, settled)) : claimsFor(ctx, result);
    },
  };

  /** After a revocation: cached verifications of revoked sessions go, and so do their sockets. */
  function sessionsEnded(): void {
    verifier.forget(isOwnRevoked);
    sockets.webSockets.closeWhere((ctx) => {
      const payload = ctx.get(SOCKET_TOKEN_PAYLOAD);
      return payload !== undefined && isOwnRevoked(payload);
    }, 1008, 'Session revoked');
  }

  /**
   * The socket's deadline on the wall clock its timer runs on: the time left by the auth clock
   * (which tests drive), counted from now.
   */
  function expireSocketAt(ctx: RequestContext, expiresAtMs: number): void {
    if (ctx.route?.webSocket === undefined || !Number.isFinite(expiresAtMs)) return;
    ctx.set(CREDENTIAL_EXPIRES_AT, Date.now() + (expiresAtMs - clock.now()));
  }

  /** The claims, and for a WebSocket upgrade what its socket must close with: the token's expiry and session. */
  function claimsFor(ctx: RequestContext, result: VerificationResult): Claims {
    const record = recordOf(result);
    ctx.set(PRINCIPAL, record.principal);
    if (result.ok && ctx.route?.webSocket !== undefined) {
      ctx.set(SOCKET_TOKEN_PAYLOAD, result.payload);
      const exp = result.payload.exp;
      if (typeof exp === 'number') expireSocketAt(ctx, exp * 1000);
    }
    return record.claims;
  }

  /**
   * The verified token's one record: its principal and sign-in facts by the "own token" rule
   * (`principalOfPayload` routes as the verifier does; "own" is its `session` kind), beside the
   * claims.
   */
  function verifiedTokenOf(payload: Readonly<Record<string, unknown>>, claims: Claims): VerifiedToken<Claims> {
    const principal = principalOfPayload(payload, outsideIssuers);
    const own = principal.kind === 'session';
    const facts: AuthenticatedToken = Object.freeze({
      own,
      subject: own ? principal.subject : undefined,
      sessionId: own ? principal.sessionId : undefined,
      authenticatedAtMs: authenticatedAtOf(payload, own),
    });
    return Object.freeze({ claims, principal, facts });
  }

  /** Own and outside tokens alike: the claims schema decides, and any failure is the one 401. */
  function recordOf(result: VerificationResult): VerifiedToken<Claims> {
    if (!result.ok) {
      recordTokenRefusal(result.reason);
      throw bearerFailure();
    }
    // After verification, on cache hits too: a revoked session's tokens still verify.
    if (isOwnRevoked(result.payload)) {
      recordTokenRefusal('revoked');
      throw bearerFailure();
    }
    const cached = verified.get(result.payload);
    if (cached !== undefined) {
      recordAuthenticated('bearer');
      return cached;
    }
    const claims = claimsSchema.safeParse(result.payload);
    if (!claims.success) {
      recordTokenRefusal('claims_schema');
      throw bearerFailure();
    }
    const record = verifiedTokenOf(result.payload, claims.data);
    verified.set(result.payload, record);
    if (typeof claims.data === 'object' && claims.data !== null) byClaims.set(claims.data, record);
    recordAuthenticated('bearer');
    return record;
  }
}

/** What the runtime keeps of one verified token: its claims, its principal, and what it says of its sign-in. */
interface VerifiedToken<Claims> {
  readonly claims: Claims;
  readonly principal: Principal;
  readonly facts: AuthenticatedToken;
}
