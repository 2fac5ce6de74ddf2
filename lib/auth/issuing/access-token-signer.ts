/**
 * Signs access tokens for the issuing service. The auth module plugs its JWT signer in; the
 * signer decides the token's expiry (from `accessTokenTtl`) and reports it.
 *
 * @example
 * const accessTokens: AccessTokenSigner<Claims> = {
 *   sign: async (claims, subject) => jwtSigner.sign({ ...claims, sub: subject }, { ttlSeconds: 900, type: 'access' }),
 * };
 */
export interface AccessTokenSigner<Claims> {
  sign(claims: Claims & Record<string, unknown>, subject: string): Promise<{ token: string; expiresAt: Date }>;
}
