import type { RevokedFamily } from '../state/revoked-family.js';
import type { Awaitable } from '../../shared/awaitable.js';
import type { NewRefreshToken, RefreshTokenRecord, RefreshTokenSuccessor } from './refresh-token-record.js';
import type { StoredSession } from '../state/stored-session.js';

/**
 * Persistence for refresh tokens, keyed by the SHA-256 hash of each token (the store never sees
 * a raw token). Methods may be sync or async.
 *
 * | Operation | Contract |
 * |---|---|
 * | `create` | stores a new active token |
 * | `find` | the record, or null/undefined |
 * | `markRotated` | atomic compare-and-set: marks an active (not rotated, not revoked) token rotated, stamping `rotatedAt`, and answers true; answers false changing nothing otherwise (also for an unknown hash) |
 * | `revoke` | stamps `revokedAt`; a no-op for unknown or already-revoked hashes |
 * | `revokeAllForSubject` | revokes every token of the subject |
 * | `rotate` (optional) | atomically: the `markRotated` compare-and-set on the old token plus `create` of the successor; false having changed nothing when the old token was already rotated or revoked. When present, refresh uses it instead of create + markRotated |
 * | `revokeFamily` (optional) | revokes every token with that `familyId`. When absent, reuse of a rotated token revokes every token of the subject instead |
 * | `revokeEverySession` (optional) | revokes every token of every subject (an administrator ending everyone's sessions, ASVS 5.0 7.4.5), stamping `revokedAt` as the other revocations do so that `revokedFamiliesSince` reports each family. When absent, `revokeEverySession` rejects |
 * | `listSessions` (optional) | the subject's sessions that can still refresh: for each family, its current token (neither rotated nor revoked; expired ones may be included, the service drops them), with the metadata it was created with. Needed by `listSessions`, `revokeSession` and `revokeOtherSessions` (with `revokeFamily`) |
 * | `revokedFamiliesSince` (optional) | every `familyId` with a token revoked at or after `since`, each once with its latest `revokedAt`. An instance reads it at boot, so that it refuses the access tokens of sessions ended before it started (the bus keeps no history). Only for a store whose revocations all end a session: one with `rotate`, which never revokes a lost race's orphan successor |
 *
 * The values `create`, `revoke`, `revokeAllForSubject`, `revokeFamily` and `revokeEverySession` resolve to are ignored
 * (typed `unknown` so a store can return its driver's result as is).
 *
 * Leave optional operations out entirely (do not set them to `undefined`-returning stubs): at
 * boot the store is completed once (`completeRefreshTokenStore`), which reads which operations it
 * has and supplies each missing one as SPEC describes refresh without it (successor-first
 * rotation, subject-wide reuse revocation); the issuing service works against that complete
 * contract only.
 *
 * @example
 * class PgRefreshTokenStore implements RefreshTokenStore {
 *   async markRotated(tokenHash: string) {
 *     const r = await sql`UPDATE refresh_tokens SET rotated_at = now()
 *                         WHERE token_hash = ${tokenHash} AND rotated_at IS NULL AND revoked_at IS NULL`;
 *     return r.count === 1;
 *   }
 *   // ...
 * }
 */
export interface RefreshTokenStore {
  create(tokenHash: string, token: NewRefreshToken): Awaitable<unknown>;
  find(tokenHash: string): Awaitable<RefreshTokenRecord | null | undefined>;
  markRotated(tokenHash: string): Awaitable<boolean>;
  revoke(tokenHash: string): Awaitable<unknown>;
  revokeAllForSubject(subject: string): Awaitable<unknown>;
  rotate?(oldTokenHash: string, next: RefreshTokenSuccessor): Awaitable<boolean>;
  revokeFamily?(familyId: string): Awaitable<unknown>;
  /** Revokes every token of every subject (see the table); `AuthService.revokeEverySession` needs it. */
  revokeEverySession?(): Awaitable<unknown>;
  revokedFamiliesSince?(since: Date): Awaitable<readonly RevokedFamily[]>;
  listSessions?(subject: string): Awaitable<readonly StoredSession[]>;
}

export type { RevokedFamily } from '../state/revoked-family.js';
