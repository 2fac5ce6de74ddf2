import type { Clock } from '../../index.js';
import { AuthConfigError } from './auth-config-error.js';
import { readAudienceOption, readIssuerOption } from './audience-and-issuer-options.js';
import { decodeBase64Url } from './base64url.js';
import { constantTimeEqual } from '../constant-time-equal.js';
import { HMAC_ALGORITHMS, assertHmacAlgorithm } from './hmac-algorithm.js';
import type { HmacAlgorithm } from './hmac-algorithm.js';
import { createHmacKey } from './hmac-key.js';
import { isAccessTokenType } from './token-type.js';
import { VerificationCache } from './verification-cache.js';
import type { VerificationCacheStats } from './verification-cache.js';
import { FAILURES } from './verification-result.js';
import type { VerificationResult, VerifiedToken } from './verification-result.js';

/**
 * Longest token considered at all. Bounds the MAC work an anonymous caller can demand and the
 * memory one cache entry can hold; 8 KiB is far above any realistic access token (~300 bytes).
 *
 * @example
 * if (header.length > MAX_TOKEN_LENGTH + 7) throw new UnauthorizedException();
 */
export const MAX_TOKEN_LENGTH = 8192;

/** Nesting deeper than this in a header or payload is refused rather than walked recursively. */
const MAX_JSON_DEPTH = 32;

const DEFAULT_CACHE_ENTRIES = 10_000;

/**
 * Header parameters that would let a token choose its own key (RFC 8725 §3.1, §3.10). The verifier
 * never uses them, but their presence means the token was built by something expecting them to be
 * honoured, so it is refused outright.
 */
const KEY_INJECTION_HEADERS = ['jwk', 'jku', 'x5u', 'x5c'] as const;

/**
 * Options for {@link createAccessTokenVerifier}; `secret`, `algorithm`, `issuer` and `audience`
 * mean what they mean in AuthModuleOptions.
 *
 * @example
 * const options: AccessTokenVerifierOptions = { secret, algorithm: 'HS256', clock: systemClock };
 */
export interface AccessTokenVerifierOptions {
  readonly secret: string;
  readonly algorithm: HmacAlgorithm;
  /** When set, the token's `iss` must equal it. */
  readonly issuer?: string | undefined;
  /** When set, the token's `aud` (string or array) must contain at least one of these values. */
  readonly audience?: string | readonly string[] | undefined;
  readonly clock: Clock;
  /** Allowed clock skew for `exp` and `nbf`, in seconds. Default 0: expiry is exact to the second. */
  readonly clockToleranceSeconds?: number | undefined;
  /** `false` disables the cache; default `{ maxEntries: 10_000 }`. */
  readonly cache?: false | { readonly maxEntries?: number | undefined } | undefined;
}

/**
 * Verifies HMAC-signed RFC 9068 access tokens. `verify` and `verifySync` run the same checks;
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
 * Creates an access-token verifier pinned to one secret and one HMAC algorithm.
 *
 * Order of checks on a token not in the cache: size and shape, then the MAC, and only then the
 * header and payload JSON. Authenticating before parsing means nothing an anonymous caller sends
 * reaches JSON.parse; the cost is that a token for another algorithm reports `bad_signature`
 * rather than `algorithm_mismatch` (the header's `alg` is still checked once the MAC matches).
 *
 * The cache (see {@link VerificationCache}) skips the header and payload checks for a token string
 * already verified by this verifier. That is sound because those checks depend only on the token
 * string and this verifier's configuration, and both are immutable; the checks that depend on time
 * (`exp`, `nbf`) run on every hit against the current clock, with the same function as the cold path.
 *
 * @example
 * const verifier = createAccessTokenVerifier({ secret, algorithm: 'HS256', issuer: 'https://id.example', clock: systemClock });
 * const result = await verifier.verify(token);
 */
export function createAccessTokenVerifier(options: AccessTokenVerifierOptions): AccessTokenVerifier {
  const { secret, algorithm, clock } = options;
  assertHmacAlgorithm(algorithm);
  const key = createHmacKey(secret, algorithm);
  const { signatureChars } = HMAC_ALGORITHMS[algorithm];
  const issuer = readIssuerOption(options.issuer);
  const audienceOption = readAudienceOption(options.audience);
  const audiences = typeof audienceOption === 'string' ? [audienceOption] : audienceOption;
  const toleranceMs = readTolerance(options.clockToleranceSeconds) * 1000;
  if (typeof clock?.now !== 'function') throw new AuthConfigError('The token verifier needs a clock');
  const cache = createCache(options.cache);
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

  function parseJsonObject(token: string, start: number, end: number): Record<string, unknown> | undefined {
    const bytes = decodeBase64Url(token, start, end);
    if (bytes === undefined) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(decoder.decode(bytes));
    } catch {
      return undefined;
    }
    if (!isPlainJsonObject(value) || !freezeJson(value, 0)) return undefined;
    return value;
  }

  function verifyUncached(token: string, nowMs: number): VerificationResult {
    const firstDot = token.indexOf('.');
    const secondDot = firstDot < 0 ? -1 : token.indexOf('.', firstDot + 1);
    if (secondDot < 0 || token.indexOf('.', secondDot + 1) >= 0) return FAILURES.malformed;
    if (token.length - secondDot - 1 !== signatureChars) return FAILURES.bad_signature;
    const signature = decodeBase64Url(token, secondDot + 1);
    if (signature === undefined) return FAILURES.malformed;
    const mac = key.macAscii(token, secondDot);
    if (mac === undefined) return FAILURES.malformed;
    if (!constantTimeEqual(mac, signature)) return FAILURES.bad_signature;

    const header = parseJsonObject(token, 0, firstDot);
    if (header === undefined) return FAILURES.malformed;
    if (own(header, 'alg') !== algorithm) return FAILURES.algorithm_mismatch;
    // We understand no critical extension, so any `crit` (even an empty one, itself invalid per
    // RFC 7515 §4.1.11) must be refused. That also disables `b64: false` (RFC 7797), which only
    // takes effect when listed in `crit`.
    if (Object.hasOwn(header, 'crit')) return FAILURES.forbidden_header;
    for (const name of KEY_INJECTION_HEADERS) {
      if (Object.hasOwn(header, name)) return FAILURES.forbidden_header;
    }
    if (!isAccessTokenType(own(header, 'typ'))) return FAILURES.wrong_type;

    const payload = parseJsonObject(token, firstDot + 1, secondDot);
    if (payload === undefined) return FAILURES.malformed;
    const exp = own(payload, 'exp');
    const nbf = own(payload, 'nbf');
    if (!isNumericDate(exp) || !hasWellTypedRegisteredClaims(payload)) return FAILURES.invalid_claims;
    const validFromMs = isNumericDate(nbf) ? nbf * 1000 - toleranceMs : -Infinity;
    const validUntilMs = exp * 1000 + toleranceMs;
    const timeFailure = checkWindow(validFromMs, validUntilMs, nowMs);
    if (timeFailure !== undefined) return timeFailure;
    if (issuer !== undefined && own(payload, 'iss') !== issuer) return FAILURES.issuer_mismatch;
    if (audiences !== undefined && !matchesAudience(own(payload, 'aud'), audiences)) return FAILURES.audience_mismatch;

    const result: VerifiedToken = Object.freeze({ ok: true, payload });
    cache?.set(token, { result, validFromMs, validUntilMs }, nowMs);
    return result;
  }

  function verifySync(token: string): VerificationResult {
    // Checked before the cache lookup too, so an oversized header costs nothing, not even hashing.
    if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return FAILURES.malformed;
    const nowMs = clock.now();
    if (cache !== undefined) {
      const entry = cache.get(token);
      if (entry !== undefined) {
        const timeFailure = checkWindow(entry.validFromMs, entry.validUntilMs, nowMs);
        if (timeFailure === undefined) return entry.result;
        // An expired entry is useless from now on (if the clock is ever set back, the token is
        // simply verified from scratch). A not-yet-valid one may become valid; the LRU bounds it.
        if (timeFailure === FAILURES.expired) cache.delete(token);
        return timeFailure;
      }
    }
    return verifyUncached(token, nowMs);
  }

  return Object.freeze({
    verifySync,
    async verify(token: string): Promise<VerificationResult> {
      return verifySync(token);
    },
    stats(): VerificationCacheStats {
      return cache?.stats() ?? { enabled: false, size: 0, maxEntries: 0, hits: 0, misses: 0 };
    },
  });
}

/** The one time check, shared by the cold path and cache hits so they cannot disagree. */
function checkWindow(validFromMs: number, validUntilMs: number, nowMs: number): VerificationResult | undefined {
  // RFC 7519 §4.1.4: the token must be refused "on or after" exp, hence >=.
  if (nowMs >= validUntilMs) return FAILURES.expired;
  if (nowMs < validFromMs) return FAILURES.not_yet_valid;
  return undefined;
}

/**
 * Reads only own properties: a parsed header or payload inherits from Object.prototype, and if
 * anything in the process ever polluted it (say with `exp`), a plain `payload.exp` would read the
 * polluted value for a token that has none.
 */
function own(object: Record<string, unknown>, name: string): unknown {
  return Object.hasOwn(object, name) ? object[name] : undefined;
}

function isNumericDate(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * Registered claims, when present, must have their RFC 7519 types; a token saying `"exp": "soon"`
 * or `"iss": 42` was not made by a correct issuer, and downstream code may assume the types.
 */
function hasWellTypedRegisteredClaims(payload: Record<string, unknown>): boolean {
  const nbf = own(payload, 'nbf');
  const iat = own(payload, 'iat');
  const iss = own(payload, 'iss');
  const sub = own(payload, 'sub');
  const jti = own(payload, 'jti');
  const aud = own(payload, 'aud');
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

function isPlainJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Deep-freezes parsed JSON so the cached payload cannot be mutated by one request and seen by the
 * next. Returns false for `__proto__` keys (JSON.parse makes them plain own properties, but a later
 * `Object.assign` or merge would turn them into a prototype change) and for excessive nesting.
 */
function freezeJson(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (depth > MAX_JSON_DEPTH) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (!freezeJson(item, depth + 1)) return false;
  } else {
    for (const name in value) {
      if (name === '__proto__') return false;
      if (!freezeJson((value as Record<string, unknown>)[name], depth + 1)) return false;
    }
  }
  Object.freeze(value);
  return true;
}

function readTolerance(seconds: unknown): number {
  if (seconds === undefined) return 0;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
    throw new AuthConfigError('clockToleranceSeconds must be a finite number >= 0');
  }
  return seconds;
}

function createCache(option: AccessTokenVerifierOptions['cache']): VerificationCache | undefined {
  if (option === false) return undefined;
  const maxEntries = option?.maxEntries ?? DEFAULT_CACHE_ENTRIES;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw new AuthConfigError('cache.maxEntries must be a positive integer');
  }
  return new VerificationCache(maxEntries);
}
