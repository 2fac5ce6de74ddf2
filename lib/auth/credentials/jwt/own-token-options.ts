import type { HmacAlgorithm } from './hmac-algorithm.js';

/**
 * The app's own tokens: one secret and HMAC algorithm, and the `iss` and `aud` they carry. The
 * one description the signer (`TokenSignerOptions`), the verifier (`AccessTokenVerifierOptions`)
 * and the bearer verifier's `own` share, so signing and checking cannot drift apart; the auth
 * module hands all three the same values from `AuthModuleOptions`.
 *
 * @example
 * const own: OwnTokenOptions = { secret: process.env.JWT_SECRET!, algorithm: 'HS256', issuer: 'https://api.acme.example', audience: 'api' };
 */
export interface OwnTokenOptions {
  /** HMAC secret; at least 32 (HS256), 48 (HS384) or 64 (HS512) bytes of UTF-8. */
  readonly secret: string;
  /** The HMAC algorithm (the auth module's default: HS256). */
  readonly algorithm: HmacAlgorithm;
  /** The `iss` claim: the signer writes it into every token; the verifier requires a token's to equal it. */
  readonly issuer?: string | undefined;
  /**
   * The `aud` claim: the signer writes it as given (string or array); the verifier requires a
   * token's (string or array) to contain at least one of these values.
   */
  readonly audience?: string | readonly string[] | undefined;
}
