import type { RefreshTokenRecord } from './refresh-token-record.js';

/**
 * The states of the refresh-token state table.
 *
 * @example
 * const state: RefreshTokenState = refreshTokenState(record, clock.now());
 */
export type RefreshTokenState = 'active' | 'rotated' | 'revoked' | 'expired';

/**
 * Reads a stored record's state at `nowMs`. Precedence: revoked, then expired, then rotated, then
 * active. Expired wins over rotated on purpose: an expired token is no credential at all, so its
 * replay is refused like any expired token and does not count as reuse.
 *
 * Fails closed: an `expiresAt` that is not a valid Date reads as expired.
 *
 * @example
 * refreshTokenState({ subject: 'u', expiresAt: new Date(2_000), rotatedAt: null }, 1_000); // 'active'
 * refreshTokenState({ subject: 'u', expiresAt: new Date(2_000) }, 2_000); // 'expired' (expiresAt <= now)
 */
export function refreshTokenState(record: RefreshTokenRecord, nowMs: number): RefreshTokenState {
  if (record.revokedAt != null) return 'revoked';
  const expiresAtMs = record.expiresAt instanceof Date ? record.expiresAt.getTime() : Number.NaN;
  // `!(x > now)` rather than `x <= now`, so NaN (an invalid date) counts as expired.
  if (!(expiresAtMs > nowMs)) return 'expired';
  if (record.rotatedAt != null) return 'rotated';
  return 'active';
}

/**
 * Whether a rotated token is replayed within the reuse grace window: strictly less than
 * `graceSeconds` after its `rotatedAt`. A grace of 0 turns the window off (every replay is
 * reuse). Fails closed: a missing or invalid `rotatedAt` is outside the window.
 *
 * @example
 * isWithinReuseGrace(new Date(0), 29_999, 30); // true
 * isWithinReuseGrace(new Date(0), 30_000, 30); // false: the window has closed
 */
export function isWithinReuseGrace(rotatedAt: Date | null | undefined, nowMs: number, graceSeconds: number): boolean {
  if (graceSeconds <= 0 || !(rotatedAt instanceof Date)) return false;
  return nowMs < rotatedAt.getTime() + graceSeconds * 1000;
}
