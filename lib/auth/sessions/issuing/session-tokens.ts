import type { AccessTokenSigner } from './access-token-signer.js';
import type { CompleteRefreshTokenStore } from './complete-refresh-token-store.js';
import { issueRefreshToken, pairOf, type IssuedRefreshToken } from './issued-refresh-token.js';
import type { RefreshTokenRecord } from './refresh-token-record.js';
import { newSessionId } from '../state/session-id.js';
import { sessionEndOf, sessionStartOfRecord } from './session-lifetime.js';
import { sessionMetadataOf, type SessionMetadata } from './session-rows.js';
import type { SignInContext } from './sign-in-context.js';
import type { ResolvedTokenLifetimes } from './token-issuing-options.js';
import type { TokenPair } from './token-pair.js';

/**
 * The tokens of a session: a new session's first pair (a refresh-token family whose id, a UUID
 * version 7, is the access tokens' `sid` and says when it started) and the successor pair of a
 * refresh (one compare-and-set rotation). Both bounded by the session's absolute end
 * (`sessionMaxAge` after its start): the access token, the refresh token and its successors.
 * `TokenIssuingService` decides who may have them; this class only makes and stores them.
 *
 * @example
 * const tokens = new SessionTokens(signer, completeRefreshTokenStore(store), resolveTokenLifetimes({}));
 * const { pair, sessionId } = await tokens.start('u_1', claims, context, clock.now());
 */
export class SessionTokens<Claims> {
  constructor(
    readonly accessTokens: AccessTokenSigner<Claims>,
    readonly refreshTokens: CompleteRefreshTokenStore,
    readonly settings: ResolvedTokenLifetimes,
  ) {}

  /** A new session at `now`: its first pair, stored, and its id. */
  async start(subject: string, claims: Claims & Record<string, unknown>, context: SignInContext | undefined, now: number): Promise<{ pair: TokenPair; sessionId: string }> {
    const familyId = newSessionId(now);
    const sessionEnd = sessionEndOf(now, this.settings.sessionMaxAge);
    const access = await this.accessTokens.sign(claims, subject, familyId, new Date(sessionEnd));
    const refresh = this.#newRefreshToken(subject, familyId, now, sessionEnd, sessionMetadataOf(context, now));
    await this.refreshTokens.create(refresh.tokenHash, refresh.record);
    return { pair: pairOf(access, refresh), sessionId: familyId };
  }

  /**
   * The successor of the active token `tokenHash` (its `record`), or undefined when the session's
   * start cannot be told or a concurrent refresh or revocation won the compare-and-set.
   */
  async rotate(tokenHash: string, record: RefreshTokenRecord, claims: Claims & Record<string, unknown>, now: number): Promise<TokenPair | undefined> {
    // A store that ignores families may return none; the successor then starts one (a store that
    // ignores families also has no revokeFamily, so reuse revokes by subject anyway).
    const familyId = typeof record.familyId === 'string' && record.familyId !== '' ? record.familyId : newSessionId(now);
    const sessionStart = sessionStartOfRecord(record);
    if (sessionStart === undefined) return undefined;
    const sessionEnd = sessionEndOf(sessionStart, this.settings.sessionMaxAge);
    // Signed before the store changes, so a signer failure leaves the old token usable.
    const access = await this.accessTokens.sign(claims, record.subject, familyId, new Date(sessionEnd));
    // The successor carries the session's metadata on (its start too, so the bound never slides);
    // its own issuedAt is this refresh.
    const successor = this.#newRefreshToken(record.subject, familyId, now, sessionEnd, {
      sessionStartedAt: new Date(sessionStart),
      userAgent: record.userAgent ?? null,
      clientAddress: record.clientAddress ?? null,
    });
    // One compare-and-set: the old token marked rotated and the successor stored, or (lost to a
    // concurrent refresh or a revocation) no usable successor.
    const won = await this.refreshTokens.rotate(tokenHash, { tokenHash: successor.tokenHash, ...successor.record });
    return won ? pairOf(access, successor) : undefined;
  }

  /** A refresh token living `refreshTokenTtl` from now, but never past its session's end. */
  #newRefreshToken(subject: string, familyId: string, now: number, sessionEnd: number, session: SessionMetadata): IssuedRefreshToken {
    return issueRefreshToken({ subject, familyId, issuedAt: new Date(now), expiresAt: new Date(Math.min(now + this.settings.refreshTokenTtl * 1000, sessionEnd)), ...session });
  }
}
