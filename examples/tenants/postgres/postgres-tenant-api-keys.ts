import type { Clock } from '../../../lib/index.js';
import type { ApiKeyRecord } from '../../../lib/auth/index.js';
import { PostgresApiKeyStore } from '../../../lib/auth/postgres/index.js';
import type { StoredApiKey } from '../../../lib/auth/postgres/index.js';
import type { PostgresStoreOptions, SqlClient } from '../../../lib/postgres/index.js';
import { newTenantKey } from '../tenant-api-keys.js';
import type { ApiKeySummary, NewTenantApiKey, TenantKeyDirectory } from '../tenant-api-keys.js';

function toSummary(key: StoredApiKey): ApiKeySummary {
  return {
    id: key.id,
    name: key.name ?? '',
    scopes: key.scopes ?? [],
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    allowedCidrs: key.allowedCidrs ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * The tenants app's keys in PostgreSQL: the tenant is the key's `owner`, so listing and revoking
 * are scoped to it in the SQL itself. Same behaviour as the in-memory `TenantApiKeys`.
 *
 * @example
 * const keys = new PostgresTenantApiKeys(pool, systemClock);
 * const { id, key } = await keys.create({ tenantId: 'acme', name: 'ci', scopes: ['posts:read'], expiresAt: null, allowedCidrs: null });
 */
export class PostgresTenantApiKeys implements TenantKeyDirectory {
  readonly #keys: PostgresApiKeyStore;
  readonly #clock: Clock;

  constructor(client: SqlClient, clock: Clock, options: PostgresStoreOptions = {}) {
    this.#keys = new PostgresApiKeyStore(client, options);
    this.#clock = clock;
  }

  find(id: string): Promise<ApiKeyRecord | undefined> {
    return this.#keys.find(id);
  }

  touch(id: string, at: Date): Promise<void> {
    return this.#keys.touch(id, at);
  }

  async create(input: NewTenantApiKey): Promise<{ id: string; key: string }> {
    const { key, record } = newTenantKey(input);
    await this.#keys.add({ ...record, owner: input.tenantId, name: input.name, createdAt: new Date(this.#clock.now()) });
    return { id: record.id, key };
  }

  async listForTenant(tenantId: string): Promise<ApiKeySummary[]> {
    return (await this.#keys.listByOwner(tenantId)).map(toSummary);
  }

  revokeForTenant(tenantId: string, id: string): Promise<boolean> {
    return this.#keys.revoke(id, new Date(this.#clock.now()), { owner: tenantId });
  }
}
