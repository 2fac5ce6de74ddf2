/**
 * What the token-issuing service tells when sessions end, so that their access tokens (stateless
 * JWTs that would verify until they expire) can be refused at once. The auth module passes its
 * `CREDENTIAL_REVOCATION`, which refuses them on every instance.
 *
 * @example
 * const listener: SessionRevocationListener = {
 *   sessionRevoked: async (sessionId) => revoked.add(sessionId),
 *   allSessionsRevoked: async (subject, cutoffMs) => cutoffs.set(subject, cutoffMs ?? Date.now()),
 *   everySessionRevoked: async (cutoffMs) => (everyoneBefore = cutoffMs ?? Date.now()),
 * };
 */
export interface SessionRevocationListener {
  /** One session ended (sign-out, or its refresh token was reused): refuse every access token whose `sid` is `sessionId`. */
  sessionRevoked(sessionId: string): Promise<void>;
  /** Every session `subject` started before `cutoffMs` (default: now) ended: refuse their access tokens. */
  allSessionsRevoked(subject: string, cutoffMs?: number): Promise<void>;
  /** Every session of every subject started before `cutoffMs` (default: now) ended (`revokeEverySession`): refuse their access tokens. */
  everySessionRevoked(cutoffMs?: number): Promise<void>;
}
