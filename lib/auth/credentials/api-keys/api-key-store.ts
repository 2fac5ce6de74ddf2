import type { ApiKeyRecord } from './api-key-record.js';

/**
 * Where API key records live (SPEC "ApiKeyStore"). Implemented by the application.
 *
 * - `find(id)`: the record, or `undefined`/`null` when there is none. Throwing (or rejecting)
 *   means the state of the key cannot be told: the request gets 503 and is never let through.
 * - `touch(id, at)` (optional): best-effort last-used update. Called at most once per key per
 *   process per `lastUsedIntervalSeconds`, never awaited by the request; failures are ignored.
 *
 * @example
 * class SqlApiKeyStore implements ApiKeyStore {
 *   async find(id: string) { return this.db.apiKeys.findById(id); }
 *   async touch(id: string, at: Date) { await this.db.apiKeys.update(id, { lastUsedAt: at }); }
 * }
 */
export interface ApiKeyStore {
  find(id: string): ApiKeyRecord | null | undefined | Promise<ApiKeyRecord | null | undefined>;
  touch?(id: string, at: Date): void | Promise<void>;
}
