/**
 * One of a person's sessions (a sign-in on one device), as `AuthService.listSessions` answers it.
 * `id` is the session id: the refresh-token family id, which every access token of the session
 * carries as its `sid` claim, so a route can mark the caller's own session in the list.
 *
 * @example
 * const sessions = await auth.listSessions(user.sub);
 * const mine = sessions.find((s) => s.id === user.sid);
 */
export interface SessionInfo {
  readonly id: string;
  /** The sign-in that started the session. */
  readonly startedAt: Date;
  /** The session's latest refresh (its sign-in when it was never refreshed). */
  readonly lastUsedAt: Date;
  /** The User-Agent sent at sign-in, truncated to {@link MAX_USER_AGENT_LENGTH}; null when none was given. */
  readonly userAgent: string | null;
  /** The client address at sign-in, as the app's trusted-proxy rules read it; null when none was given. */
  readonly clientAddress: string | null;
}

/** The longest User-Agent a session keeps (longer ones are cut): a header is no place to grow a table. */
export const MAX_USER_AGENT_LENGTH = 256;

/** The longest client address a session keeps (an IPv6 address with a zone fits). */
export const MAX_CLIENT_ADDRESS_LENGTH = 64;
