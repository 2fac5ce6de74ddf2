/**
 * Signs access tokens for the issuing service. The auth module plugs its JWT signer in; the
 * signer decides the token's expiry (from `accessTokenTtl`) and reports it. `sessionId` is the
 * refresh-token family the token belongs to: put it in the `sid` claim so that ending the session
 * can refuse the token before it expires. `notAfter` is the session's absolute end: a token
 * must not live past it (sign with the shorter of the TTL and the time left).
 *
 * @example
 * const accessTokens: AccessTokenSigner<Claims> = {
 *   sign: async (claims, subject, sessionId) => jwtSigner.sign({ ...claims, sub: subject, sid: sessionId }, { ttlSeconds: 900, type: 'access' }),
 * };
 */
export interface AccessTokenSigner<Claims> {
  sign(claims: Claims & Record<string, unknown>, subject: string, sessionId: string, notAfter?: Date): Promise<{ token: string; expiresAt: Date }>;
}
