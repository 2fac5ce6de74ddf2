/**
 * Session ids: the refresh-token family id, carried by every access token of the session as its
 * `sid` claim. A UUID version 7 (RFC 9562): the first 48 bits are the session's start in Unix
 * milliseconds, the remaining 74 bits random, so a revocation of all of a subject's sessions can
 * tell, to the millisecond, a session started before it (refused) from one started after it (a
 * sign-in right after a password change keeps working). `crypto.randomUUID` only makes version 4.
 */

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const MAX_48_BITS = 2 ** 48;

/**
 * A new session id starting at `nowMs`.
 *
 * @example
 * const familyId = newSessionId(clock.now()); // '019ab3c4-5d6e-7f01-8a2b-3c4d5e6f7a8b'
 */
export function newSessionId(nowMs: number): string {
  if (!Number.isSafeInteger(nowMs) || nowMs < 0 || nowMs >= MAX_48_BITS) throw new RangeError('newSessionId needs a Unix time in whole milliseconds');
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const time = nowMs.toString(16).padStart(12, '0');
  for (let i = 0; i < 6; i++) bytes[i] = Number.parseInt(time.slice(i * 2, i * 2 + 2), 16);
  bytes[6] = 0x70 | (bytes[6]! & 0x0f);
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * When the session started (Unix ms), read from a version-7 session id; undefined for anything
 * else (a family id from before session ids, or a value that is not one).
 *
 * @example
 * sessionStartOf(newSessionId(1_767_225_600_000)); // 1767225600000
 */
export function sessionStartOf(sessionId: unknown): number | undefined {
  if (typeof sessionId !== 'string' || !UUID_V7.test(sessionId)) return undefined;
  return Number.parseInt(sessionId.slice(0, 8) + sessionId.slice(9, 13), 16);
}
