import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../../lib/auth/credentials/api-keys/index.js';
import type { ApiKeyRecord, ApiKeyStore } from '../../lib/auth/credentials/api-keys/index.js';
import { T0 } from './contract-fixtures.js';
import type { MaybePromise } from './contract-fixtures.js';

/** An API key store under test plus the management operations the contract drives. */
export interface ApiKeyStoreHandle {
  readonly store: ApiKeyStore;
  add(record: ApiKeyRecord): MaybePromise<unknown>;
  /** Revokes from `at`, keeping the earlier moment; false for an unknown id. */
  revoke(id: string, at: Date): MaybePromise<boolean>;
  lastUsedAt(id: string): MaybePromise<Date | undefined>;
}

function newRecord(overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  const generated = generateApiKey();
  return {
    id: generated.id,
    secretHash: generated.secretHash,
    claims: { sub: `api-key:${generated.id}`, roles: ['member'], tenantId: 'acme' },
    scopes: ['posts:read', 'posts:write'],
    expiresAt: new Date(T0 + 86_400_000),
    revokedAt: null,
    allowedCidrs: ['10.0.0.0/8', '2001:db8::/32'],
    ...overrides,
  };
}

/**
 * The ApiKeyStore contract (SPEC "Store contracts", "API key" state table) for any
 * implementation: `find`, the optional `touch`, and revocation that nothing undoes.
 *
 * @example
 * describeApiKeyStoreContract('in-memory', async () => wrap(new InMemoryApiKeyStore()));
 */
export function describeApiKeyStoreContract(name: string, make: () => Promise<ApiKeyStoreHandle>): void {
  describe(`ApiKeyStore contract: ${name}`, () => {
    it('finds a stored record field for field; null/undefined for an unknown id', async () => {
      const { store, add } = await make();
      const record = newRecord();
      await add(record);
      expect(await store.find(record.id)).toEqual(record);
      const bare = newRecord({ scopes: [], expiresAt: null, allowedCidrs: null });
      await add(bare);
      expect(await store.find(bare.id)).toEqual(bare);
      expect(await store.find(generateApiKey().id)).toBeFalsy();
    });

    it('hands out copies: mutating a found record changes nothing stored', async () => {
      const { store, add } = await make();
      const record = newRecord();
      await add(record);
      const found = await store.find(record.id);
      (found?.scopes as string[] | undefined)?.push('admin');
      found?.expiresAt?.setTime(0);
      expect(await store.find(record.id)).toEqual(record);
    });

    it('refuses a second record with the same id', async () => {
      const { add } = await make();
      const record = newRecord();
      await add(record);
      await expect(async () => add({ ...record })).rejects.toThrow(/already exists/);
    });

    it('revocation keeps the record and the earliest revokedAt; unknown ids answer false', async () => {
      const { store, add, revoke } = await make();
      const record = newRecord();
      await add(record);
      expect(await revoke(record.id, new Date(T0 + 5_000))).toBe(true);
      expect(await revoke(record.id, new Date(T0 + 9_000))).toBe(true);
      expect(await revoke(record.id, new Date(T0 + 1_000))).toBe(true);
      expect(await store.find(record.id)).toEqual({ ...record, revokedAt: new Date(T0 + 1_000) });
      expect(await revoke(generateApiKey().id, new Date(T0))).toBe(false);
    });

    it('touch records the last use and changes nothing the authenticator reads; unknown ids are a no-op', async () => {
      const { store, add, revoke, lastUsedAt } = await make();
      const record = newRecord();
      await add(record);
      expect(await lastUsedAt(record.id)).toBeUndefined();
      await store.touch?.(record.id, new Date(T0 + 1_000));
      expect(await lastUsedAt(record.id)).toEqual(new Date(T0 + 1_000));
      await revoke(record.id, new Date(T0 + 2_000));
      await store.touch?.(record.id, new Date(T0 + 3_000));
      expect(await store.find(record.id)).toEqual({ ...record, revokedAt: new Date(T0 + 2_000) });
      expect(await lastUsedAt(record.id)).toEqual(new Date(T0 + 3_000));
      await store.touch?.(generateApiKey().id, new Date(T0));
    });

    it('concurrent touches never lose a concurrent revocation', async () => {
      const { store, add, revoke } = await make();
      const record = newRecord();
      await add(record);
      const touches = Array.from({ length: 40 }, (_, i) => Promise.resolve(store.touch?.(record.id, new Date(T0 + i))));
      const revocation = Promise.resolve(revoke(record.id, new Date(T0 + 20)));
      const more = Array.from({ length: 40 }, (_, i) => Promise.resolve(store.touch?.(record.id, new Date(T0 + 40 + i))));
      await Promise.all([...touches, revocation, ...more]);
      expect((await store.find(record.id))?.revokedAt).toEqual(new Date(T0 + 20));
    });
  });
}
