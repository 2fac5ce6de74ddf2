/**
 * What a signed token is for. Each kind gets its own JOSE `typ` header so that a token minted for
 * one purpose can never be replayed as another (RFC 8725 §3.11 "explicit typing").
 *
 * @example
 * signer.sign({ sub: 'u1' }, { ttlSeconds: 900, type: 'access' });
 */
export type TokenType = 'access' | 'refresh';

/**
 * The `typ` header written for each {@link TokenType}. `at+jwt` is RFC 9068's access-token type;
 * refresh tokens are opaque in Tessera today, and `rt+jwt` only exists so that a refresh token
 * made a JWT some day is still distinct from an access token.
 *
 * @example
 * TOKEN_TYPE_HEADERS.access; // 'at+jwt'
 */
export const TOKEN_TYPE_HEADERS: Readonly<Record<TokenType, string>> = Object.freeze({
  access: 'at+jwt',
  refresh: 'rt+jwt',
});

// RFC 7515 §4.1.9: `typ` is a media type, compared case-insensitively, and the `application/`
// prefix may be omitted. The regex has no `u` flag on purpose: without it, `i` folds ASCII letters
// only, so no non-ASCII character (such as the Kelvin sign) can case-fold into a match.
const ACCESS_TYPE_PATTERN = /^(?:application\/)?at\+jwt$/i;

// `JWT` is RFC 7519 §5.1's generic type, what jose, jsonwebtoken, @nestjs/jwt and most identity
// providers write; `application/jwt` is the same media type spelled in full (RFC 7515 §4.1.9).
const GENERIC_JWT_PATTERN = /^(?:application\/)?jwt$/i;

/**
 * Whether a bearer token's `typ` header is acceptable. By default: absent, the generic `JWT`, or
 * RFC 9068's `at+jwt` (each with or without `application/`, any letter case). Any other value
 * names another kind of token (`rt+jwt`, `id_token+jwt`, `dpop+jwt`, ...) and is refused, so a
 * token minted for one purpose is never taken as an access token. With `strict`, only `at+jwt`.
 *
 * @example
 * isAcceptedAccessTokenType(undefined, false); // true
 * isAcceptedAccessTokenType('JWT', true); // false
 * isAcceptedAccessTokenType('rt+jwt', false); // false
 */
export function isAcceptedAccessTokenType(typ: unknown, strict: boolean): boolean {
  if (typ === undefined) return !strict;
  if (typeof typ !== 'string') return false;
  return ACCESS_TYPE_PATTERN.test(typ) || (!strict && GENERIC_JWT_PATTERN.test(typ));
}
