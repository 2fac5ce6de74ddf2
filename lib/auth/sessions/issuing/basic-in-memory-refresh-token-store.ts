import { systemClock } from '../../../index.js';
import type { Clock } from '../../../index.js';
import { InMemoryRefreshTokenTable } from './in-memory-refresh-token-table.js';
import type { StoredRefreshToken } from './in-memory-refresh-token-table.js';
import type { NewRefreshToken, RefreshTokenRecord } from './refresh-token-record.js';
import type { RefreshTokenStore } from './refresh-token-store.js';

/**
 * An in-memory refresh-token store with only the required operations: no `rotate` (refresh
 * stores the successor, then runs the `markRotated` compare-and-set) and no `revokeFamily` (reuse
 * revokes every token of the subject). It shows what the service does with a minimal store, and
 * tests that path. Data lives in the process and is lost on restart: for tests and demos, hence
 * exported from `tessera-http/testing` (and, deprecated until 0.3, from `tessera-http/auth`).
 *
 * Each operation runs synchronously inside its async method, so it is atomic under concurrent
 * callers. The constructor argument is optional, so the class can be given to the auth module
 * as a provider as is.
 *
 * @example
 * import { BasicInMemoryRefreshTokenStore } from 'tessera-http/testing';
 * const store = new BasicInMemoryRefreshTokenStore(createManualClock(0));
 * 'rotate' in store; // false
 */
export class BasicInMemoryRefreshTokenStore implements RefreshTokenStore {
  /** Shared with {@link InMemoryRefreshTokenStore}, which adds the optional operations. */
  protected readonly table: InMemoryRefreshTokenTable;

  /** @param clock stamps `rotatedAt` and `revokedAt`; default the system clock. */
  constructor(clock: Clock = systemClock) {
    this.table = new InMemoryRefreshTokenTable(clock);
  }

  async create(tokenHash: string, token: NewRefreshToken): Promise<void> {
    this.table.create(tokenHash, token);
  }

  async find(tokenHash: string): Promise<RefreshTokenRecord | undefined> {
    return this.table.find(tokenHash);
  }

  async markRotated(tokenHash: string): Promise<boolean> {
    return this.table.markRotated(tokenHash);
  }

  async revoke(tokenHash: string): Promise<void> {
    this.table.revoke(tokenHash);
  }

  async revokeAllForSubject(subject: string): Promise<void> {
    this.table.revokeAllForSubject(subject);
  }

  /**
   * A frozen snapshot of every stored token, for tests.
   *
   * @example
   * store.records().filter((r) => r.revokedAt === null).length;
   */
  records(): readonly StoredRefreshToken[] {
    return this.table.records();
  }
}
