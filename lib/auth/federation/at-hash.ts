import { encodeBase64 } from '../../internal/primitives.js';

/** The hash of each JWS algorithm family, by the size in its name (OIDC Core 3.1.3.6). */
function hashOf(alg: string | undefined): 'SHA-256' | 'SHA-384' | 'SHA-512' | undefined {
  if (alg === undefined) return undefined;
  if (alg === 'EdDSA' || alg === 'Ed25519') return 'SHA-512';
  const size = /^(?:RS|PS|ES|HS)(256|384|512)$/.exec(alg)?.[1];
  return size === undefined ? undefined : (`SHA-${size}` as 'SHA-256' | 'SHA-384' | 'SHA-512');
}

/**
 * Whether an ID token's `at_hash` is the left half of the hash of `accessToken`, base64url,
 * with the hash of the ID token's `alg` (OpenID Connect Core 1.0, 3.1.3.6 and 3.3.2.11). An
 * unknown algorithm never matches. oauth4webapi checks `c_hash` and `s_hash` but leaves
 * `at_hash` in the code flow to the client, where it is optional.
 *
 * @example
 * await atHashMatches(tokens.access_token, claims.at_hash, 'RS256');
 */
export async function atHashMatches(accessToken: string, atHash: string, alg: string | undefined): Promise<boolean> {
  const hash = hashOf(alg);
  if (hash === undefined) return false;
  const digest = new Uint8Array(await crypto.subtle.digest(hash, new TextEncoder().encode(accessToken)));
  const expected = encodeBase64(digest.subarray(0, digest.length / 2));
  // Both are public values of the token answer; the comparison needs no constant time.
  return expected === atHash;
}
