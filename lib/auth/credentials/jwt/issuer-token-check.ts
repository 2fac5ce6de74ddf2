import { compactVerify, errors } from 'jose';
import type { Clock } from '../../../index.js';
import { createIssuerKeySource } from './issuer-key-source.js';
import { compactDots, ownClaim, parseJoseSegment } from './jose-json.js';
import { checkTokenClaims, checkTokenHeader } from './token-policy.js';
import type { TokenPolicy } from './token-policy.js';
import type { TrustedIssuer } from './trusted-issuer-options.js';
import type { VerificationOutcome } from './verification-front.js';
import { FAILURES } from './verification-result.js';
import type { VerificationFailure } from './verification-result.js';

/**
 * The full, uncached verification of a token routed to one outside issuer, and `prepare` for its
 * keys (run at boot).
 *
 * @example
 * const { check } = createIssuerTokenCheck(issuer, { clock, toleranceMs: 0 });
 * const outcome = await check(token, clock.now(), payload);
 */
export interface IssuerTokenCheck {
  /** `payload`: the token's payload segment, already parsed (by the router, which read its `iss`). */
  check(token: string, nowMs: number, payload: Readonly<Record<string, unknown>>): Promise<VerificationOutcome>;
  prepare(): Promise<void>;
  /** Whether the issuer's keys can be had (see IssuerKeySource.available). */
  keysAvailable(): Promise<boolean>;
}

/**
 * Builds the {@link IssuerTokenCheck} of one trusted issuer.
 *
 * The router has parsed the payload already, to read `iss`. Order: shape, header JSON, `alg`
 * against the issuer's list (so an HS or `none` token never reaches a key lookup, let alone a
 * JWKS request), the header rules every verifier shares, the
 * signature with jose's `compactVerify` (the list pinned again there), and only then the claims,
 * with the same {@link checkTokenClaims} as the app's own tokens. Unlike the HMAC path, the
 * header is parsed before the signature is checked: the key cannot be chosen without its `kid`.
 *
 * @example
 * const { check, prepare } = createIssuerTokenCheck(readTrustedIssuer(options), { clock: systemClock, toleranceMs: 5000 });
 */
export function createIssuerTokenCheck(issuer: TrustedIssuer, settings: { readonly clock: Clock; readonly toleranceMs: number }): IssuerTokenCheck {
  const keys = createIssuerKeySource(issuer, settings.clock);
  const allowed: ReadonlySet<string> = new Set(issuer.algorithms);
  const verifyOptions = { algorithms: [...issuer.algorithms] };
  const policy: TokenPolicy = {
    issuer: issuer.issuer,
    audiences: issuer.audiences,
    toleranceMs: settings.toleranceMs,
    strictType: issuer.strictType,
  };

  async function verifySignature(token: string): Promise<VerificationFailure | undefined> {
    try {
      await compactVerify(token, keys.resolve, verifyOptions);
      return undefined;
    } catch (error) {
      if (!(error instanceof errors.JWKSMultipleMatchingKeys)) return failureOf(error);
      // Several keys fit a token without `kid`: jose hands them over; the first that verifies wins.
      for await (const key of error as errors.JWKSMultipleMatchingKeys & AsyncIterable<CryptoKey>) {
        try {
          await compactVerify(token, key, verifyOptions);
          return undefined;
        } catch {
          // Not this key.
        }
      }
      return FAILURES.bad_signature;
    }
  }

  return {
    prepare: () => keys.prepare(),
    keysAvailable: () => keys.available(),
    async check(token, nowMs, payload) {
      const dots = compactDots(token);
      if (dots === undefined) return FAILURES.malformed;
      const header = parseJoseSegment(token, 0, dots[0]);
      if (header === undefined) return FAILURES.malformed;
      const alg = ownClaim(header, 'alg');
      if (typeof alg !== 'string' || !allowed.has(alg)) return FAILURES.algorithm_mismatch;
      const headerFailure = checkTokenHeader(header, policy);
      if (headerFailure !== undefined) return headerFailure;
      const signatureFailure = await verifySignature(token);
      if (signatureFailure !== undefined) return signatureFailure;
      // The signature covers that very segment, so the parse made before it is the verified payload.
      return checkTokenClaims(payload, policy, nowMs);
    },
  };
}

/** Maps what jose (or the key source) threw to a reason; every one of them is a refusal. */
function failureOf(error: unknown): VerificationFailure {
  if (error instanceof errors.JWSSignatureVerificationFailed) return FAILURES.bad_signature;
  if (error instanceof errors.JOSEAlgNotAllowed) return FAILURES.algorithm_mismatch;
  if (error instanceof errors.JWSInvalid) return FAILURES.malformed;
  // No key to verify with: an unknown kid (JWKSNoMatchingKey), no key set yet (KeysUnavailableError,
  // JWKSTimeout), or a key unusable for the alg (wrong type, RSA under 2048 bits). No signature was
  // verified, so the token is refused.
  return FAILURES.key_unavailable;
}
