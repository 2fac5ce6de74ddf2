import { systemClock } from '../../clock.js';
import type { Clock } from '../../clock.js';
import { InMemoryRefreshTokenTable } from './in-memory-refresh-token-table.js';
import type { StoredRefreshToken } from './in-memory-refresh-token-table.js';
import type { NewRefreshToken, RefreshTokenRecord, RefreshTokenSuccessor } from './refresh-token-record.js';
import type { RefreshTokenStore } from './refresh-token-store.js';

/**
 * The in-memory refresh-token store with every operation, including the atomic `rotate` and
 * `revokeFamily`. Data lives in the process and is lost on restart: for tests, demos and
 * single-process development.
 *
 * Each operation runs synchronously inside its async method, so it is atomic under concurrent
 * callers. The constructor argument is optional, so the class can be given to the auth module
 * as a provider as is.
 *
 * @example
 * AuthModule.forRoot({ secret, issuing: { credentialStore: AccountsStore, refreshTokenStore: InMemoryRefreshTokenStore } });
 */
export class InMemoryRefreshTokenStore implements RefreshTokenStore {
  readonly #table: InMemoryRefreshTokenTable;

  /** @param clock stamps `rotatedAt` and `revokedAt`; default the system clock. */
  constructor(clock: Clock = systemClock) {
    this.#table = new InMemoryRefreshTokenTable(clock);
  }

  async create(tokenHash: string, token: NewRefreshToken): Promise<void> {
    this.#table.create(tokenHash, token);
  }

  async find(tokenHash: string): Promise<RefreshTokenRecord | undefined> {
    return this.#table.find(tokenHash);
  }

  async markRotated(tokenHash: string): Promise<boolean> {
    return this.#table.markRotated(tokenHash);
  }

  async rotate(oldTokenHash: string, next: RefreshTokenSuccessor): Promise<boolean> {
    return this.#table.rotate(oldTokenHash, next);
  }

  async revoke(tokenHash: string): Promise<void> {
    this.#table.revoke(tokenHash);
  }

  async revokeAllForSubject(subject: string): Promise<void> {
    this.#table.revokeAllForSubject(subject);
  }

  async revokeFamily(familyId: string): Promise<void> {
    this.#table.revokeFamily(familyId);
  }

  /**
   * A frozen snapshot of every stored token, for tests.
   *
   * @example
   * store.records().filter((r) => r.revokedAt === null).length;
   */
  records(): readonly StoredRefreshToken[] {
    return this.#table.records();
  }
}
