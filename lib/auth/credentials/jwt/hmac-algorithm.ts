import { AuthConfigError } from '../../shared/auth-config-error.js';

/**
 * The JWS algorithms of the app's own tokens, which Tessera signs and verifies with one shared
 * secret and never a key lookup. Outside issuers' tokens use public-key algorithms
 * (`AsymmetricAlgorithm`); the two lists never overlap, which removes the asymmetric/symmetric
 * confusion class: an HS token is never checked against a public key.
 *
 * @example
 * const algorithm: HmacAlgorithm = 'HS256';
 */
export type HmacAlgorithm = 'HS256' | 'HS384' | 'HS512';

/**
 * Per algorithm: the minimum secret size in bytes (RFC 7518 §3.2: a key at least as long as the
 * hash output) and the length of the base64url signature segment, which is fixed per algorithm
 * and lets the verifier reject a wrong-size signature before doing any work.
 *
 * @example
 * HMAC_ALGORITHMS.HS384.minSecretBytes; // 48
 */
export const HMAC_ALGORITHMS: Readonly<Record<HmacAlgorithm, { readonly minSecretBytes: number; readonly macBytes: number; readonly signatureChars: number }>> =
  Object.freeze({
    HS256: Object.freeze({ minSecretBytes: 32, macBytes: 32, signatureChars: 43 }),
    HS384: Object.freeze({ minSecretBytes: 48, macBytes: 48, signatureChars: 64 }),
    HS512: Object.freeze({ minSecretBytes: 64, macBytes: 64, signatureChars: 86 }),
  });

/**
 * Narrows a configuration value to {@link HmacAlgorithm}; plain JavaScript callers and config
 * files can pass anything, so this is checked at runtime, not only by the type system.
 *
 * @example
 * assertHmacAlgorithm(options.algorithm); // throws AuthConfigError for 'RS256'
 */
export function assertHmacAlgorithm(algorithm: unknown): asserts algorithm is HmacAlgorithm {
  if (algorithm !== 'HS256' && algorithm !== 'HS384' && algorithm !== 'HS512') {
    // The algorithm is configuration, not a secret; still bounded so a huge value cannot flood logs.
    const shown = typeof algorithm === 'string' ? JSON.stringify(algorithm.slice(0, 16)) : typeof algorithm;
    throw new AuthConfigError(`Unsupported JWT algorithm ${shown}; expected HS256, HS384 or HS512`);
  }
}
