import type { Clock } from '../../../index.js';
import { AuthConfigError } from '../../shared/auth-config-error.js';
import { readAudienceOption, readIssuerOption } from './audience-and-issuer-options.js';
import { decodeBase64 } from '../../../internal/primitives.js';
import { constantTimeEqual } from '../../shared/constant-time-equal.js';
import { HMAC_ALGORITHMS, assertHmacAlgorithm } from './hmac-algorithm.js';
import type { OwnTokenOptions } from './own-token-options.js';
import { createHmacKey } from './hmac-key.js';
import { compactDots, ownClaim, parseJoseSegment } from './jose-json.js';
import { checkTokenClaims, checkTokenHeader, readTolerance } from './token-policy.js';
import type { TokenPolicy } from './token-policy.js';
import type { VerificationCacheStats } from './verification-cache.js';
import { createVerificationFront } from './verification-front.js';
import type { VerificationCacheOption, VerificationOutcome } from './verification-front.js';
import { FAILURES } from './verification-result.js';
import type { VerificationResult } from './verification-result.js';

/**
 * Options for {@link createAccessTokenVerifier}: the app's own tokens (`OwnTokenOptions`, the same
 * the signer is given; they mean what they mean in AuthModuleOptions) and how they are checked.
 *
 * @example
 * const options: AccessTokenVerifierOptions = { secret, algorithm: 'HS256', clock: systemClock };
 */
export type AccessTokenVerifierOptions = OwnTokenOptions & AccessTokenCheckOptions;

/**
 * How {@link createAccessTokenVerifier} checks the app's own tokens, beside their key and claims.
 *
 * @example
 * const check: AccessTokenCheckOptions = { clock: systemClock, clockToleranceSeconds: 5 };
 */
export interface AccessTokenCheckOptions {
  readonly clock: Clock;
  /** Allowed clock skew for `exp`, `nbf` and `iat`, in seconds. Default 0: exact to the second. */
  readonly clockToleranceSeconds?: number | undefined;
  /** When true, only `typ: at+jwt` is accepted; by default also no `typ` and `typ: JWT`. */
  readonly requireAccessTokenType?: boolean | undefined;
  /** `false` disables the cache; default `{ maxEntries: 10_000 }`. */
  readonly cache?: VerificationCacheOption;
}

/**
 * Verifies HMAC-signed access tokens. `verify` and `verifySync` run the same checks;
 * `verifySync` exists so a synchronous guard does not have to allocate a promise per request.
 *
 * @example
 * const result = verifier.verifySync(bearerToken);
 * if (!result.ok) throw new UnauthorizedException();
 */
export interface AccessTokenVerifier {
  verify(token: string): Promise<VerificationResult>;
  verifySync(token: string): VerificationResult;
  /** Cache counters; `enabled: false` and zeros when the cache is off. */
  stats(): VerificationCacheStats;
}

/**
 * The full, uncached verification of an HMAC token at one instant; what
 * {@link createAccessTokenVerifier} runs on a cache miss, and what the bearer verifier runs for
 * tokens it routes to the app's own secret.
 *
 * @example
 * const check = createHmacTokenCheck({ secret, algorithm: 'HS256', clock: systemClock });
 * const outcome = check(token, Date.now());
 */
export type HmacTokenCheck = (token: string, nowMs: number) => VerificationOutcome;

/**
 * Builds the {@link HmacTokenCheck} for one secret and algorithm.
 *
 * Order of checks: shape, then the MAC, and only then the header and payload JSON. Authenticating
 * before parsing means nothing an anonymous caller sends reaches JSON.parse; the cost is that a
 * token for another algorithm reports `bad_signature` rather than `algorithm_mismatch` (the
 * header's `alg` is still checked once the MAC matches).
 *
 * @example
 * const check = createHmacTokenCheck({ secret, algorithm: 'HS256', issuer: 'https://id.example', clock: systemClock });
 */
export function createHmacTokenCheck(options: Omit<AccessTokenVerifierOptions, 'cache'>): HmacTokenCheck {
  const { secret, algorithm } = options;
  assertHmacAlgorithm(algorithm);
  const key = createHmacKey(secret, algorithm);
  const { signatureChars } = HMAC_ALGORITHMS[algorithm];
  const policy = readTokenPolicy(options);

  return (token, nowMs) => {
    const dots = compactDots(token);
    if (dots === undefined) return FAILURES.malformed;
    const [firstDot, secondDot] = dots;
    if (token.length - secondDot - 1 !== signatureChars) return FAILURES.bad_signature;
    const signature = decodeBase64(token, 'url', secondDot + 1);
    if (signature === undefined) return FAILURES.malformed;
    const mac = key.macAscii(token, secondDot);
    if (mac === undefined) return FAILURES.malformed;
    if (!constantTimeEqual(mac, signature)) return FAILURES.bad_signature;

    const header = parseJoseSegment(token, 0, firstDot);
    if (header === undefined) return FAILURES.malformed;
    if (ownClaim(header, 'alg') !== algorithm) return FAILURES.algorithm_mismatch;
    const headerFailure = checkTokenHeader(header, policy);
    if (headerFailure !== undefined) return headerFailure;
    const payload = parseJoseSegment(token, firstDot + 1, secondDot);
    if (payload === undefined) return FAILURES.malformed;
    return checkTokenClaims(payload, policy, nowMs);
  };
}

/**
 * Creates an access-token verifier pinned to one secret and one HMAC algorithm (checks in the
 * order {@link createHmacTokenCheck} gives).
 *
 * The cache (see {@link VerificationCache}) skips the header and payload checks for a token string
 * already verified by this verifier. That is sound because those checks depend only on the token
 * string and this verifier's configuration, and both are immutable; the checks that depend on time
 * (`exp`, `nbf`, `iat`) run on every hit against the current clock, with the same function as the
 * cold path.
 *
 * @example
 * const verifier = createAccessTokenVerifier({ secret, algorithm: 'HS256', issuer: 'https://id.example', clock: systemClock });
 * const result = await verifier.verify(token);
 */
export function createAccessTokenVerifier(options: AccessTokenVerifierOptions): AccessTokenVerifier {
  const check = createHmacTokenCheck(options);
  const { clock } = options;
  const front = createVerificationFront(options.cache);

  function verifySync(token: string): VerificationResult {
    const nowMs = clock.now();
    return front.lookup(token, nowMs) ?? front.settle(token, check(token, nowMs), nowMs);
  }

  return Object.freeze({
    verifySync,
    async verify(token: string): Promise<VerificationResult> {
      return verifySync(token);
    },
    stats: front.stats,
  });
}

/**
 * The policy of the app's own tokens, from the verifier options (validated: issuer, audience,
 * tolerance, clock).
 */
function readTokenPolicy(options: Omit<AccessTokenVerifierOptions, 'cache'>): TokenPolicy {
  const audience = readAudienceOption(options.audience);
  if (typeof options.clock?.now !== 'function') throw new AuthConfigError('The token verifier needs a clock');
  return {
    issuer: readIssuerOption(options.issuer),
    audiences: typeof audience === 'string' ? [audience] : audience,
    toleranceMs: readTolerance(options.clockToleranceSeconds) * 1000,
    strictType: options.requireAccessTokenType === true,
  };
}
