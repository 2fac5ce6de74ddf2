import type { RevokedFamily } from '../state/revoked-family.js';
import type { StoredSession } from '../state/stored-session.js';
import type { NewRefreshToken, RefreshTokenRecord, RefreshTokenSuccessor } from './refresh-token-record.js';
import type { RefreshTokenStore } from './refresh-token-store.js';

/**
 * What a reuse revocation ended: one sign-in (`family`), or every token of the subject
 * (`subject`: the store has no family revocation, or the record carries no family).
 *
 * @example
 * const ended: ReuseRevocation = { scope: 'family', familyId: 'f1' };
 */
export type ReuseRevocation = { readonly scope: 'family'; readonly familyId: string } | { readonly scope: 'subject'; readonly subject: string };

/**
 * The refresh-token contract the issuing service works against: every operation present, every
 * answer a promise, the compare-and-set answers strict booleans. A store written to SPEC's
 * contract (`RefreshTokenStore`, whose `rotate`, `revokeFamily`, `listSessions` and
 * `revokedFamiliesSince` are optional) is made into one once, at boot, by
 * {@link completeRefreshTokenStore}; the service has no branch on what a store lacks.
 *
 * @example
 * const store: CompleteRefreshTokenStore = completeRefreshTokenStore(new InMemoryRefreshTokenStore());
 * if (!(await store.rotate(oldHash, successor))) throw invalidCredentials();
 */
export interface CompleteRefreshTokenStore {
  create(tokenHash: string, token: NewRefreshToken): Promise<void>;
  find(tokenHash: string): Promise<RefreshTokenRecord | undefined>;
  revoke(tokenHash: string): Promise<void>;
  revokeAllForSubject(subject: string): Promise<void>;
  /**
   * Marks the old token rotated and stores the successor, answering true exactly when this call
   * won the compare-and-set. A loser's successor is never usable: the store's `rotate` changes
   * nothing; the successor-first fallback revokes the one it stored.
   */
  rotate(oldTokenHash: string, next: RefreshTokenSuccessor): Promise<boolean>;
  /** Revokes one sign-in's tokens; rejects naming what the store lacks when it cannot. */
  revokeFamily(familyId: string): Promise<void>;
  /** Revokes every token of every subject; rejects naming what the store lacks when it cannot. */
  revokeEverySession(): Promise<void>;
  /** Revokes what a replayed rotated token belongs to (SPEC's reuse row) and says which. */
  revokeReused(record: RefreshTokenRecord): Promise<ReuseRevocation>;
  /** The subject's sessions; rejects naming what the store lacks when it cannot list them. */
  listSessions(subject: string): Promise<readonly StoredSession[]>;
  /** Sessions ended since `since`; none from a store that keeps no such history. */
  revokedFamiliesSince(since: Date): Promise<readonly RevokedFamily[]>;
}

/** The completed stores this module made, so completing one again answers it as is. */
const completed = new WeakSet<CompleteRefreshTokenStore>();

/**
 * Adapts a refresh-token store written to SPEC's contract to the complete one, once (at boot:
 * the issuing service's constructor and the auth module call it). Each operation the store has is
 * used as is; each optional one it lacks is supplied exactly as SPEC's refresh-token state table
 * describes refresh without it:
 *
 * | Missing | Supplied as |
 * |---|---|
 * | `rotate` | successor first (`create`), then the old token's `markRotated` compare-and-set; a loser revokes the successor it stored and answers false; a `markRotated` that throws revokes it too (best effort) and rethrows, so the old token stays usable |
 * | `revokeFamily` | reuse revokes every token of the subject (`revokeAllForSubject`); revoking one session (`revokeSession`) rejects, as there is no way to end just one |
 * | `listSessions` (or `revokeFamily`) | listing and ending sessions reject with an Error naming both operations |
 * | `revokeEverySession` | `revokeEverySession` (everyone's sessions) rejects with an Error naming it |
 * | `revokedFamiliesSince` | no history: a starting instance learns of ended sessions from the bus only |
 *
 * A record without a `familyId` (a store that ignores families) is revoked by subject too.
 * Completing a store this function answered returns it unchanged.
 *
 * @example
 * const store = completeRefreshTokenStore({ create, find, markRotated, revoke, revokeAllForSubject });
 * await store.rotate(oldHash, successor); // create(successor) then markRotated(oldHash)
 */
export function completeRefreshTokenStore(store: RefreshTokenStore | CompleteRefreshTokenStore): CompleteRefreshTokenStore {
  if (completed.has(store as CompleteRefreshTokenStore)) return store as CompleteRefreshTokenStore;
  const spec = store as RefreshTokenStore;
  // Read once: which operations a store has does not change after boot, and the service never
  // asks again (a Proxy such as the tracing wrapper answers undefined for an absent method).
  const rotate = spec.rotate;
  const revokeFamily = spec.revokeFamily;
  const listSessions = spec.listSessions;
  const revokedFamiliesSince = spec.revokedFamiliesSince;
  const revokeEverySession = spec.revokeEverySession;
  const canEndSessions = typeof listSessions === 'function' && typeof revokeFamily === 'function';
  const noSessionList = (): Promise<never> =>
    Promise.reject(new Error('sessions: the RefreshTokenStore needs listSessions and revokeFamily to list and end sessions (the in-memory and PostgreSQL stores have both)'));

  const complete: CompleteRefreshTokenStore = {
    create: async (tokenHash, token) => {
      await spec.create(tokenHash, token);
    },
    find: async (tokenHash) => (await spec.find(tokenHash)) ?? undefined,
    revoke: async (tokenHash) => {
      await spec.revoke(tokenHash);
    },
    revokeAllForSubject: async (subject) => {
      await spec.revokeAllForSubject(subject);
    },
    // Exactly `true` wins: a store leaking a truthy driver result must not let every racer win.
    rotate:
      typeof rotate === 'function'
        ? async (oldTokenHash, next) => (await rotate.call(spec, oldTokenHash, next)) === true
        : (oldTokenHash, next) => rotateSuccessorFirst(spec, oldTokenHash, next),
    revokeFamily: canEndSessions
      ? async (familyId) => {
          await revokeFamily.call(spec, familyId);
        }
      : noSessionList,
    revokeEverySession:
      typeof revokeEverySession === 'function'
        ? async () => {
            await revokeEverySession.call(spec);
          }
        : () => Promise.reject(new Error('sessions: the RefreshTokenStore needs revokeEverySession to end every session of everyone (the in-memory and PostgreSQL stores have it)')),
    revokeReused: async (record) => {
      const familyId = record.familyId;
      if (typeof revokeFamily === 'function' && typeof familyId === 'string' && familyId !== '') {
        await revokeFamily.call(spec, familyId);
        return { scope: 'family', familyId };
      }
      // Without family revocation the only safe scope is everything the subject holds.
      await spec.revokeAllForSubject(record.subject);
      return { scope: 'subject', subject: record.subject };
    },
    listSessions: canEndSessions ? async (subject) => listSessions.call(spec, subject) : noSessionList,
    revokedFamiliesSince: typeof revokedFamiliesSince === 'function' ? async (since) => revokedFamiliesSince.call(spec, since) : async () => [],
  };
  completed.add(complete);
  return complete;
}

/**
 * SPEC's rotation for a store without `rotate`: the successor is stored first, so a failure
 * between the two steps leaves the old token active and the client can retry (the reverse order
 * could strand it with no usable token).
 */
async function rotateSuccessorFirst(store: RefreshTokenStore, oldTokenHash: string, next: RefreshTokenSuccessor): Promise<boolean> {
  const { tokenHash, ...record } = next;
  await store.create(tokenHash, record);
  let won: boolean;
  try {
    won = (await store.markRotated(oldTokenHash)) === true;
  } catch (error) {
    // Nobody will ever receive the successor; revoke it best-effort and report the store error.
    await revokeQuietly(store, tokenHash);
    throw error;
  }
  // A concurrent refresh of the same token won the compare-and-set (or a revocation landed
  // first). Our successor is an orphan nobody holds: revoke it so each token has at most one
  // active successor. (Should the process die right here, the orphan stays active but is
  // harmless: its raw value was never returned to anyone.)
  if (!won) await store.revoke(tokenHash);
  return won;
}

async function revokeQuietly(store: RefreshTokenStore, tokenHash: string): Promise<void> {
  try {
    await store.revoke(tokenHash);
  } catch {
    // The store is already failing; the original error is the one worth reporting.
  }
}
