import { systemClock } from '../../../index.js';
import { checkedClock } from '../../../internal/primitives.js';
import type { Clock } from '../../../index.js';
import { BasicInMemoryRefreshTokenStore } from './basic-in-memory-refresh-token-store.js';
import { InMemoryRefreshTokenStore } from './in-memory-refresh-token-store.js';
import { InMemoryRefreshTokenTable } from './in-memory-refresh-token-table.js';
import type { StoredRefreshToken } from './in-memory-refresh-token-table.js';
import type { RefreshTokenStore } from './refresh-token-store.js';

// Test-only (not exported from the package): the four in-memory refresh-token stores, with and
// without each of SPEC's optional operations, as inputs that the boot-time completion
// (complete-refresh-token-store.ts) must turn into the same behaviour the state table describes.

/**
 * Which optional operations the store should have.
 *
 * @example
 * const options: InMemoryRefreshTokenStoreVariantOptions = { rotate: true, revokeFamily: false };
 */
export interface InMemoryRefreshTokenStoreVariantOptions {
  readonly rotate: boolean;
  readonly revokeFamily: boolean;
  /** Stamps `rotatedAt` and `revokedAt`; default the system clock. */
  readonly clock?: Clock | undefined;
}

/**
 * A refresh-token store with a `records()` snapshot for assertions.
 *
 * @example
 * const store: InMemoryRefreshTokenStoreVariant = createInMemoryRefreshTokenStore({ rotate: false, revokeFamily: true });
 */
export type InMemoryRefreshTokenStoreVariant = RefreshTokenStore & {
  records(): readonly StoredRefreshToken[];
};

/**
 * Builds any of the four in-memory store variants, for tests that must cover every way a store
 * is completed (atomic `rotate` or successor-first; family or subject-wide reuse revocation).
 * Operations not asked for are absent (not present-but-undefined): the completion checks presence.
 * Both-true gives an `InMemoryRefreshTokenStore`, both-false a `BasicInMemoryRefreshTokenStore`.
 *
 * @example
 * for (const rotate of [false, true]) for (const revokeFamily of [false, true]) {
 *   const store = createInMemoryRefreshTokenStore({ rotate, revokeFamily, clock });
 * }
 */
export function createInMemoryRefreshTokenStore(options: InMemoryRefreshTokenStoreVariantOptions): InMemoryRefreshTokenStoreVariant {
  const clock = checkedClock(options.clock ?? systemClock);
  if (options.rotate && options.revokeFamily) return new InMemoryRefreshTokenStore(clock);
  if (!options.rotate && !options.revokeFamily) return new BasicInMemoryRefreshTokenStore(clock);

  const table = new InMemoryRefreshTokenTable(clock);
  const required: InMemoryRefreshTokenStoreVariant = {
    create: async (tokenHash, token) => table.create(tokenHash, token),
    find: async (tokenHash) => table.find(tokenHash),
    markRotated: async (tokenHash) => table.markRotated(tokenHash),
    revoke: async (tokenHash) => table.revoke(tokenHash),
    revokeAllForSubject: async (subject) => table.revokeAllForSubject(subject),
    records: () => table.records(),
  };
  return options.rotate
    ? { ...required, rotate: async (oldTokenHash, next) => table.rotate(oldTokenHash, next) }
    : // Session lists come with family revocation: ending a session is revoking its family.
      { ...required, revokeFamily: async (familyId) => table.revokeFamily(familyId), listSessions: async (subject) => table.listSessions(subject) };
}
