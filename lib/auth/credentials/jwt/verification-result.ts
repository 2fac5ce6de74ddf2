/**
 * Why a token was refused. For logs and tests only: the HTTP layer answers every failure with the
 * same 401 so that a caller learns nothing about which check failed.
 *
 * - `malformed`: not three strict base64url segments, too long, bad JSON, or not a JSON object.
 * - `bad_signature`: the MAC does not match (also what a token for another HS size produces,
 *   because the MAC is checked before the header is read).
 * - `algorithm_mismatch`: correctly MACed, but `alg` is not the configured algorithm; or, for an
 *   outside issuer's token, `alg` is not in that issuer's list (HS* and `none` never are).
 * - `forbidden_header`: `crit`, `jwk`, `jku`, `x5u` or `x5c` present.
 * - `wrong_type`: `typ` names another kind of token (anything but absent, `JWT` or `at+jwt`), or
 *   is not `at+jwt` where that is required.
 * - `invalid_claims`: `exp` missing or not a number, or a registered claim of the wrong type.
 * - `expired`, `not_yet_valid` (before `nbf` or `iat`), `issuer_mismatch`, `audience_mismatch`: as named.
 * - `key_unavailable`: an outside issuer's token whose key is unknown (an unknown `kid` after the
 *   one refetch the cooldown allows) or cannot be had (JWKS endpoint down, slow or invalid).
 *
 * @example
 * if (!result.ok) logger.debug({ reason: result.reason }, 'bearer token refused');
 */
export type VerificationFailureReason =
  | 'malformed'
  | 'bad_signature'
  | 'algorithm_mismatch'
  | 'forbidden_header'
  | 'wrong_type'
  | 'invalid_claims'
  | 'expired'
  | 'not_yet_valid'
  | 'issuer_mismatch'
  | 'audience_mismatch'
  | 'key_unavailable';

/**
 * A token that passed every check. `payload` is deep-frozen: the same object is handed out on
 * every cache hit, so letting one caller mutate it would change what the next request sees.
 *
 * @example
 * if (result.ok) claimsSchema.parse(result.payload);
 */
export interface VerifiedToken {
  readonly ok: true;
  readonly payload: Readonly<Record<string, unknown>>;
}

/**
 * A refused token; see {@link VerificationFailureReason}.
 *
 * @example
 * if (!result.ok) throw new UnauthorizedException();
 */
export interface VerificationFailure {
  readonly ok: false;
  readonly reason: VerificationFailureReason;
}

/**
 * What verification returns. A result, not an exception: refusing a token is an expected outcome,
 * and building an Error (with its stack trace) per forged token would cost more than the check.
 *
 * @example
 * const result: VerificationResult = verifier.verifySync(token);
 */
export type VerificationResult = VerifiedToken | VerificationFailure;

function failure(reason: VerificationFailureReason): VerificationFailure {
  return Object.freeze({ ok: false, reason });
}

/**
 * One frozen failure object per reason, so refusing a token allocates nothing.
 *
 * @example
 * return FAILURES.expired;
 */
export const FAILURES: Readonly<Record<VerificationFailureReason, VerificationFailure>> = Object.freeze({
  malformed: failure('malformed'),
  bad_signature: failure('bad_signature'),
  algorithm_mismatch: failure('algorithm_mismatch'),
  forbidden_header: failure('forbidden_header'),
  wrong_type: failure('wrong_type'),
  invalid_claims: failure('invalid_claims'),
  expired: failure('expired'),
  not_yet_valid: failure('not_yet_valid'),
  issuer_mismatch: failure('issuer_mismatch'),
  audience_mismatch: failure('audience_mismatch'),
  key_unavailable: failure('key_unavailable'),
});
