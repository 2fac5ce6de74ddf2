import type { Clock } from '../../../index.js';
import { createHmacTokenCheck } from './access-token-verifier.js';
import type { OwnTokenOptions } from './own-token-options.js';
import { createIssuerTokenCheck } from './issuer-token-check.js';
import type { IssuerTokenCheck } from './issuer-token-check.js';
import { compactDots, ownClaim, parseJoseSegment } from './jose-json.js';
import { readTolerance } from './token-policy.js';
import { readTrustedIssuers } from './trusted-issuer-options.js';
import type { TrustedIssuerOptions } from './trusted-issuer-options.js';
import type { VerificationCacheStats } from './verification-cache.js';
import { createVerificationFront } from './verification-front.js';
import type { VerificationCacheOption } from './verification-front.js';
import type { VerificationResult } from './verification-result.js';

/**
 * Options for {@link createBearerTokenVerifier}: the app's own HMAC tokens (`own`, as for
 * `createAccessTokenVerifier`) and any outside issuers, with one clock, tolerance and cache.
 *
 * @example
 * const options: BearerTokenVerifierOptions = { own: { secret, algorithm: 'HS256' }, trustedIssuers: [auth0], clock: systemClock };
 */
export interface BearerTokenVerifierOptions {
  /** The app's own tokens; `requireAccessTokenType` as in `AccessTokenVerifierOptions`. */
  readonly own: OwnTokenOptions & { readonly requireAccessTokenType?: boolean | undefined };
  readonly trustedIssuers?: readonly TrustedIssuerOptions[] | undefined;
  readonly clock: Clock;
  /** Allowed clock skew for `exp`, `nbf` and `iat` of every issuer's tokens, in seconds; default 0. */
  readonly clockToleranceSeconds?: number | undefined;
  readonly cache?: VerificationCacheOption;
}

/**
 * Verifies bearer tokens from the app itself and from trusted outside issuers. `verify` answers
 * synchronously whenever it can (the app's own tokens, and every cache hit) and with a promise
 * when a public-key signature must be checked, so a guard allocates no promise on the hot path.
 *
 * @example
 * const result = verifier.verify(token);
 * const settled = result instanceof Promise ? await result : result;
 */
export interface BearerTokenVerifier {
  verify(token: string): VerificationResult | Promise<VerificationResult>;
  /** Imports PEM keys; run once at boot. A key that cannot be imported rejects with AuthConfigError. */
  prepare(): Promise<void>;
  /** The trusted issuers whose keys cannot be had now (empty when all can, or there are none). */
  issuersWithoutKeys(): Promise<string[]>;
  /**
   * Drops the cached verifications whose payload matches (a revoked session's tokens) and returns
   * how many; they are verified from scratch next time.
   *
   * @example
   * verifier.forget((payload) => payload.sid === sessionId);
   */
  forget(matches: (payload: Readonly<Record<string, unknown>>) => boolean): number;
  stats(): VerificationCacheStats;
}

/**
 * Creates the bearer verifier. A token is routed by its `iss` claim, read before the signature
 * is checked only to choose the verifier:
 *
 * - `iss` names a trusted issuer: that issuer's public keys and algorithm list, nothing else. An
 *   HS token claiming an outside issuer is therefore refused (HS is never in an issuer's list),
 *   and a token signed by one issuer's key but naming another fails the other's signature check.
 * - otherwise: the app's own secret and HMAC algorithm, which refuse every public-key token, and
 *   an `iss` other than the configured `issuer` when one is set. So a token of an unknown issuer
 *   is refused.
 *
 * One cache covers both paths; it is keyed by the exact token string and routing depends only on
 * that string and this verifier's configuration, so a hit is the answer the cold path would give
 * (time re-checked on every hit). With no trusted issuers, nothing is parsed before the MAC.
 *
 * @example
 * const verifier = createBearerTokenVerifier({
 *   own: { secret, algorithm: 'HS256', issuer: 'https://api.acme.test' },
 *   trustedIssuers: [{ issuer: 'https://acme.eu.auth0.com/', audience: 'https://api.acme.test', jwksUrl: 'https://acme.eu.auth0.com/.well-known/jwks.json' }],
 *   clock: systemClock,
 *   clockToleranceSeconds: 30,
 * });
 */
export function createBearerTokenVerifier(options: BearerTokenVerifierOptions): BearerTokenVerifier {
  const { clock } = options;
  const toleranceSeconds = readTolerance(options.clockToleranceSeconds);
  // Refuses a missing clock (AuthConfigError) before anything else uses it.
  const own = createHmacTokenCheck({ ...options.own, clock, clockToleranceSeconds: toleranceSeconds });
  const issuers = new Map<string, IssuerTokenCheck>();
  for (const issuer of readTrustedIssuers(options.trustedIssuers, options.own.issuer)) {
    issuers.set(issuer.issuer, createIssuerTokenCheck(issuer, { clock, toleranceMs: toleranceSeconds * 1000 }));
  }
  const front = createVerificationFront(options.cache);

  /** The outside issuer a token names, with the payload read to find it; undefined for the app's own verifier. */
  function routeOf(token: string): { readonly issuer: IssuerTokenCheck; readonly payload: Readonly<Record<string, unknown>> } | undefined {
    if (issuers.size === 0) return undefined;
    const dots = compactDots(token);
    if (dots === undefined) return undefined;
    const payload = parseJoseSegment(token, dots[0] + 1, dots[1]);
    const iss = payload === undefined ? undefined : ownClaim(payload, 'iss');
    const issuer = typeof iss === 'string' ? issuers.get(iss) : undefined;
    return issuer === undefined || payload === undefined ? undefined : { issuer, payload };
  }

  return Object.freeze({
    verify(token: string): VerificationResult | Promise<VerificationResult> {
      const nowMs = clock.now();
      const known = front.lookup(token, nowMs);
      if (known !== undefined) return known;
      const route = routeOf(token);
      if (route === undefined) return front.settle(token, own(token, nowMs), nowMs);
      return route.issuer.check(token, nowMs, route.payload).then((outcome) => front.settle(token, outcome, nowMs));
    },
    async prepare(): Promise<void> {
      for (const issuer of issuers.values()) await issuer.prepare();
    },
    async issuersWithoutKeys(): Promise<string[]> {
      const entries = [...issuers.entries()];
      const available = await Promise.all(entries.map(([, issuer]) => issuer.keysAvailable()));
      return entries.filter((_, index) => !available[index]).map(([name]) => name);
    },
    forget: front.forget,
    stats: front.stats,
  });
}
