import { sessionStartOf } from '../state/session-id.js';
import type { RefreshTokenRecord } from './refresh-token-record.js';

/**
 * When a stored token's session started (Unix ms): the `sessionStartedAt` its sign-in stored,
 * else the start written in its version-7 session id (rows from before the column); undefined
 * when neither tells, and then its session is refused a refresh (fail closed: an unknown start
 * would let the absolute lifetime slide).
 *
 * @example
 * sessionStartOfRecord({ subject: 'u_1', familyId: newSessionId(t0), expiresAt }); // t0
 */
export function sessionStartOfRecord(record: Pick<RefreshTokenRecord, 'sessionStartedAt' | 'familyId'>): number | undefined {
  const stored = record.sessionStartedAt?.getTime();
  if (stored !== undefined && Number.isFinite(stored)) return stored;
  return sessionStartOf(record.familyId);
}

/**
 * The moment (Unix ms) a session started at `startMs` ends for good: `sessionMaxAge` seconds
 * later, however often it was refreshed.
 *
 * @example
 * sessionEndOf(Date.parse('2026-01-01T00:00:00Z'), 86_400); // 2026-01-02T00:00:00Z in ms
 */
export function sessionEndOf(startMs: number, sessionMaxAgeSeconds: number): number {
  return startMs + sessionMaxAgeSeconds * 1000;
}
