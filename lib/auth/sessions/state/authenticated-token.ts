/**
 * What a verified bearer token says of the sign-in behind it, kept beside its claims: whether it
 * is one of the app's own tokens (then `subject` and `sessionId` name a local account and one of
 * its sessions), and when the person authenticated (for `requireRecentAuth`).
 *
 * @example
 * const facts = runtime.tokenFacts(getCurrentUser(ctx)!); // { own: true, subject: 'alice', sessionId: '019a...', authenticatedAtMs: 1767225600000 }
 */
export interface AuthenticatedToken {
  readonly own: boolean;
  /** The `sub` of an own token; undefined for an identity provider's token. */
  readonly subject: string | undefined;
  /** The `sid` of an own token (its session); undefined otherwise. */
  readonly sessionId: string | undefined;
  /** When the person authenticated (Unix ms), when the token says; see `authenticatedAtOf`. */
  readonly authenticatedAtMs: number | undefined;
}
