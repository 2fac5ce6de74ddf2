import { generateRefreshToken } from './generate-refresh-token.js';
import { hashRefreshToken } from './hash-refresh-token.js';
import type { NewRefreshToken } from './refresh-token-record.js';
import type { TokenPair } from './token-pair.js';

/**
 * A refresh token just made: the raw value goes to the client, the hash and record to the store.
 *
 * @example
 * const issued = issueRefreshToken({ subject: 'u_1', familyId, expiresAt });
 * await store.create(issued.tokenHash, issued.record);
 */
export interface IssuedRefreshToken {
  readonly token: string;
  readonly tokenHash: string;
  readonly record: NewRefreshToken;
}

/**
 * A new random refresh token for `record`, with the hash the store keys it by.
 *
 * @example
 * const issued = issueRefreshToken({ subject: 'u_1', familyId, expiresAt, issuedAt: new Date() });
 */
export function issueRefreshToken(record: NewRefreshToken): IssuedRefreshToken {
  const token = generateRefreshToken();
  return { token, tokenHash: hashRefreshToken(token), record };
}

/**
 * The pair handed to the client: the access token and the refresh token with their expiries.
 *
 * @example
 * return pairOf(await signer.sign(claims, subject, familyId), issued);
 */
export function pairOf(access: { token: string; expiresAt: Date }, refresh: IssuedRefreshToken): TokenPair {
  return {
    accessToken: access.token,
    accessTokenExpiresAt: access.expiresAt,
    refreshToken: refresh.token,
    // A copy, so the caller mutating its Date cannot touch what an in-memory store may hold.
    refreshTokenExpiresAt: new Date(refresh.record.expiresAt.getTime()),
  };
}
