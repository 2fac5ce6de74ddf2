import type { ApiKeyRecord } from './api-key-record.js';
import type { ApiKeyStore } from './api-key-store.js';

/**
 * A reference {@link ApiKeyStore} kept in memory, for tests, examples and single-process apps.
 *
 * Records are copied in and out, so a caller mutating a returned record (or the one it added)
 * cannot change what the authenticator reads later. `revoke` sets `revokedAt` and keeps the
 * record, as SPEC requires for audit. The constructor has only a defaulted parameter, so the DI
 * container can build it as a bare provider class.
 *
 * @example
 * const store = new InMemoryApiKeyStore();
 * const generated = generateApiKey();
 * store.add({ id: generated.id, secretHash: generated.secretHash, claims, scopes: ['posts:read'] });
 * store.revoke(generated.id, new Date());
 */
export class InMemoryApiKeyStore implements ApiKeyStore {
  readonly #records = new Map<string, ApiKeyRecord>();
  readonly #lastUsed = new Map<string, Date>();

  // A default (not `records?:`) keeps `InMemoryApiKeyStore.length === 0` for the DI container.
  constructor(records: Iterable<ApiKeyRecord> = []) {
    for (const record of records) this.add(record);
  }

  /** Stores a new record. Throws if the id is already taken: ids are never reused. */
  add(record: ApiKeyRecord): void {
    if (this.#records.has(record.id)) throw new Error(`API key id ${JSON.stringify(record.id)} already exists`);
    this.#records.set(record.id, copyRecord(record));
  }

  find(id: string): ApiKeyRecord | undefined {
    const record = this.#records.get(id);
    return record === undefined ? undefined : copyRecord(record);
  }

  touch(id: string, at: Date): void {
    if (this.#records.has(id)) this.#lastUsed.set(id, new Date(at.getTime()));
  }

  /**
   * Marks a key revoked from `at` (default now) and keeps the record. Revoking twice keeps the
   * earlier moment. Returns false when there is no such key.
   */
  revoke(id: string, at: Date = new Date()): boolean {
    const record = this.#records.get(id);
    if (record === undefined) return false;
    const earlier = record.revokedAt instanceof Date && record.revokedAt.getTime() <= at.getTime();
    if (!earlier) this.#records.set(id, { ...record, revokedAt: new Date(at.getTime()) });
    return true;
  }

  /** Every record (revoked ones included), copied, in insertion order. */
  list(): ApiKeyRecord[] {
    return [...this.#records.values()].map(copyRecord);
  }

  /** When `touch` last recorded a use of the key, if ever. */
  lastUsedAt(id: string): Date | undefined {
    const at = this.#lastUsed.get(id);
    return at === undefined ? undefined : new Date(at.getTime());
  }
}

function copyRecord(record: ApiKeyRecord): ApiKeyRecord {
  // `structuredClone` copies Dates and nested claims; it exists on every supported runtime.
  return structuredClone(record);
}
