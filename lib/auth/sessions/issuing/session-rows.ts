import { MAX_CLIENT_ADDRESS_LENGTH, MAX_USER_AGENT_LENGTH, type SessionInfo } from '../state/session-info.js';
import type { NewRefreshToken } from './refresh-token-record.js';
import { sessionStartOf } from '../state/session-id.js';
import type { SignInContext } from './sign-in-context.js';
import type { StoredSession } from '../state/stored-session.js';

/** What a session keeps from its sign-in, copied onto every successor token. */
export type SessionMetadata = Pick<NewRefreshToken, 'sessionStartedAt' | 'userAgent' | 'clientAddress'>;

/**
 * The metadata a session starts with: when, and the sign-in's user agent and client address cut
 * to their limits (what a person sees in their list of sessions).
 *
 * @example
 * sessionMetadataOf({ userAgent: 'Firefox', clientAddress: '203.0.113.9' }, Date.now());
 */
export function sessionMetadataOf(context: SignInContext | undefined, now: number): SessionMetadata {
  return {
    sessionStartedAt: new Date(now),
    userAgent: truncated(context?.userAgent, MAX_USER_AGENT_LENGTH),
    clientAddress: truncated(context?.clientAddress, MAX_CLIENT_ADDRESS_LENGTH),
  };
}

/**
 * A store row as the public shape, or undefined for a row without a usable session id. Rows from
 * before sessions kept metadata take their start from the session id and their last use from it.
 *
 * @example
 * const session = toSessionInfo(row); // { id, startedAt, lastUsedAt, userAgent, clientAddress }
 */
export function toSessionInfo(row: StoredSession): SessionInfo | undefined {
  if (typeof row.familyId !== 'string' || row.familyId === '') return undefined;
  const startMs = row.sessionStartedAt?.getTime() ?? sessionStartOf(row.familyId);
  if (startMs === undefined || !Number.isFinite(startMs)) return undefined;
  const lastUsedMs = row.issuedAt?.getTime() ?? startMs;
  return {
    id: row.familyId,
    startedAt: new Date(startMs),
    lastUsedAt: new Date(Number.isFinite(lastUsedMs) ? lastUsedMs : startMs),
    userAgent: row.userAgent ?? null,
    clientAddress: row.clientAddress ?? null,
  };
}

/** A header value cut to `max` UTF-16 units (never splitting a surrogate pair), or null. */
function truncated(value: string | undefined, max: number): string | null {
  if (typeof value !== 'string' || value === '') return null;
  if (value.length <= max) return value;
  const cut = value.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * The sessions of a subject's rows that can still refresh at `nowMs`, one per family, oldest first.
 *
 * @example
 * const sessions = liveSessionsOf(await store.listSessions(subject), clock.now());
 */
export function liveSessionsOf(rows: readonly StoredSession[], nowMs: number): SessionInfo[] {
  const sessions = new Map<string, SessionInfo>();
  for (const row of rows) {
    if (!(row.expiresAt.getTime() > nowMs)) continue;
    const session = toSessionInfo(row);
    if (session !== undefined) sessions.set(session.id, session);
  }
  return [...sessions.values()].sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime());
}
