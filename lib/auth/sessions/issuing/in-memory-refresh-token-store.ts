import { BasicInMemoryRefreshTokenStore } from './basic-in-memory-refresh-token-store.js';
import type { RefreshTokenSuccessor } from './refresh-token-record.js';
import type { RefreshTokenStore, RevokedFamily } from './refresh-token-store.js';
import type { StoredSession } from '../state/stored-session.js';

/**
 * The in-memory refresh-token store with every operation, including the atomic `rotate`,
 * `revokeFamily`, `revokedFamiliesSince` and `listSessions`. Data lives in the process and is lost on restart: for tests, demos and
 * single-process development.
 *
 * Each operation runs synchronously inside its async method, so it is atomic under concurrent
 * callers. The constructor argument is optional, so the class can be given to the auth module
 * as a provider as is.
 *
 * @example
 * AuthModule.forRoot({ secret, issuing: { credentialStore: AccountsStore, refreshTokenStore: InMemoryRefreshTokenStore } });
 */
export class InMemoryRefreshTokenStore extends BasicInMemoryRefreshTokenStore implements RefreshTokenStore {
  async rotate(oldTokenHash: string, next: RefreshTokenSuccessor): Promise<boolean> {
    return this.table.rotate(oldTokenHash, next);
  }

  async revokeFamily(familyId: string): Promise<void> {
    this.table.revokeFamily(familyId);
  }

  async revokedFamiliesSince(since: Date): Promise<readonly RevokedFamily[]> {
    return [...this.table.revokedFamiliesSince(since.getTime())].map(([familyId, revokedAtMs]) => ({ familyId, revokedAt: new Date(revokedAtMs) }));
  }

  async listSessions(subject: string): Promise<readonly StoredSession[]> {
    return this.table.listSessions(subject);
  }

  /** Revokes every token of every subject (`AuthService.revokeEverySession`). */
  async revokeEverySession(): Promise<void> {
    this.table.revokeEverySession();
  }
}
