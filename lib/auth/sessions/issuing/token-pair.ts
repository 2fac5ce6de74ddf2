/**
 * What sign-in, refresh and issueTokens return. The refresh token is an opaque random string
 * (never a JWT); only its SHA-256 hash is stored.
 *
 * @example
 * const { accessToken, refreshToken, accessTokenExpiresAt } = await auth.signIn('alice@acme.test', password);
 */
export interface TokenPair {
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly accessTokenExpiresAt: Date;
  readonly refreshTokenExpiresAt: Date;
}
