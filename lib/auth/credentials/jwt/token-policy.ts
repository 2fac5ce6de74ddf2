import { AuthConfigError } from '../../shared/auth-config-error.js';
import { ownClaim } from './jose-json.js';
import { isAcceptedAccessTokenType } from './token-type.js';
import type { VerificationCacheEntry } from './verification-cache.js';
import { FAILURES } from './verification-result.js';
import type { VerificationFailure } from './verification-result.js';

/**
 * What a verifier demands of a token's header and claims once its signature is known good. One
 * policy per verifier (the app's own tokens, and each outside issuer), checked by the same two
 * functions, so own and outside tokens cannot be held to different rules by accident.
 *
 * @example
 * const policy: TokenPolicy = { issuer: 'https://id.example', audiences: ['api'], toleranceMs: 0, strictType: false };
 */
export interface TokenPolicy {
  /** When set, `iss` must equal it. */
  readonly issuer: string | undefined;
  /** When set, `aud` (string or array) must contain at least one of these. */
  readonly audiences: readonly string[] | undefined;
  /** Allowed clock skew for `exp`, `nbf` and `iat`, in milliseconds. */
  readonly toleranceMs: number;
  /** Only `typ: at+jwt` (RFC 9068) is accepted, rather than also absent and `JWT`. */
  readonly strictType: boolean;
}

/**
 * Header parameters that would let a token choose its own key (RFC 8725 §3.1, §3.10). No verifier
 * uses them, but their presence means the token was built by something expecting them to be
 * honoured, so it is refused outright.
 */
const KEY_INJECTION_HEADERS = ['jwk', 'jku', 'x5u', 'x5c'] as const;

/**
 * Checks the header parameters every verifier refuses or requires, except `alg`, which each
 * verifier pins itself. Undefined when the header is acceptable.
 *
 * @example
 * const failure = checkTokenHeader(header, policy);
 * if (failure) return failure;
 */
export function checkTokenHeader(header: Readonly<Record<string, unknown>>, policy: TokenPolicy): VerificationFailure | undefined {
  // We understand no critical extension, so any `crit` (even an empty one, itself invalid per
  // RFC 7515 §4.1.11) must be refused. That also disables `b64: false` (RFC 7797), which only
  // takes effect when listed in `crit`.
  if (Object.hasOwn(header, 'crit')) return FAILURES.forbidden_header;
  for (const name of KEY_INJECTION_HEADERS) {
    if (Object.hasOwn(header, name)) return FAILURES.forbidden_header;
  }
  if (!isAcceptedAccessTokenType(ownClaim(header, 'typ'), policy.strictType)) return FAILURES.wrong_type;
  return undefined;
}

/**
 * Checks the claims of a token whose signature is verified: `exp` required, registered claims
 * well typed, the validity window (with tolerance) against `nowMs`, then `iss` and `aud`. On
 * success returns the cache entry: the verified result and its window, so a cache hit re-checks
 * time with {@link checkWindow}, the same function.
 *
 * @example
 * const outcome = checkTokenClaims(payload, policy, clock.now());
 * if ('ok' in outcome) return outcome; // a failure
 */
export function checkTokenClaims(
  payload: Readonly<Record<string, unknown>>,
  policy: TokenPolicy,
  nowMs: number,
): VerificationCacheEntry | VerificationFailure {
  const exp = ownClaim(payload, 'exp');
  if (!isNumericDate(exp) || !hasWellTypedRegisteredClaims(payload)) return FAILURES.invalid_claims;
  const validFromMs = validFrom(ownClaim(payload, 'nbf'), ownClaim(payload, 'iat'), policy.toleranceMs);
  const validUntilMs = exp * 1000 + policy.toleranceMs;
  const timeFailure = checkWindow(validFromMs, validUntilMs, nowMs);
  if (timeFailure !== undefined) return timeFailure;
  if (policy.issuer !== undefined && ownClaim(payload, 'iss') !== policy.issuer) return FAILURES.issuer_mismatch;
  if (policy.audiences !== undefined && !matchesAudience(ownClaim(payload, 'aud'), policy.audiences)) return FAILURES.audience_mismatch;
  return { result: Object.freeze({ ok: true, payload }), validFromMs, validUntilMs };
}

/**
 * The one time check, shared by the cold path and cache hits so they cannot disagree. Undefined
 * when `nowMs` is inside `[validFromMs, validUntilMs)`.
 *
 * @example
 * checkWindow(entry.validFromMs, entry.validUntilMs, clock.now()); // FAILURES.expired once past exp
 */
export function checkWindow(validFromMs: number, validUntilMs: number, nowMs: number): VerificationFailure | undefined {
  // RFC 7519 §4.1.4: the token must be refused "on or after" exp, hence >=.
  if (nowMs >= validUntilMs) return FAILURES.expired;
  if (nowMs < validFromMs) return FAILURES.not_yet_valid;
  return undefined;
}

/**
 * Reads `clockToleranceSeconds`: a finite number >= 0, default 0.
 *
 * @example
 * readTolerance(30); // 30
 */
export function readTolerance(seconds: unknown): number {
  if (seconds === undefined) return 0;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
    throw new AuthConfigError('clockToleranceSeconds must be a finite number >= 0');
  }
  return seconds;
}

/**
 * A token is usable from its `nbf` and from its `iat` (one issued in the future comes from a clock
 * that is ahead, or was made up), each less the tolerance.
 */
function validFrom(nbf: unknown, iat: unknown, toleranceMs: number): number {
  const from = Math.max(isNumericDate(nbf) ? nbf * 1000 : -Infinity, isNumericDate(iat) ? iat * 1000 : -Infinity);
  return from - toleranceMs;
}

function isNumericDate(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * Registered claims, when present, must have their RFC 7519 types; a token saying `"exp": "soon"`
 * or `"iss": 42` was not made by a correct issuer, and downstream code may assume the types.
 */
function hasWellTypedRegisteredClaims(payload: Readonly<Record<string, unknown>>): boolean {
  const nbf = ownClaim(payload, 'nbf');
  const iat = ownClaim(payload, 'iat');
  const iss = ownClaim(payload, 'iss');
  const sub = ownClaim(payload, 'sub');
  const jti = ownClaim(payload, 'jti');
  const aud = ownClaim(payload, 'aud');
  if (nbf !== undefined && !isNumericDate(nbf)) return false;
  if (iat !== undefined && !isNumericDate(iat)) return false;
  if (iss !== undefined && typeof iss !== 'string') return false;
  if (sub !== undefined && typeof sub !== 'string') return false;
  if (jti !== undefined && typeof jti !== 'string') return false;
  if (aud !== undefined && typeof aud !== 'string') {
    if (!Array.isArray(aud) || !aud.every((entry) => typeof entry === 'string')) return false;
  }
  return true;
}

function matchesAudience(aud: unknown, expected: readonly string[]): boolean {
  if (typeof aud === 'string') return expected.includes(aud);
  if (Array.isArray(aud)) return aud.some((entry) => typeof entry === 'string' && expected.includes(entry));
  return false;
}
