import { createToken, type Clock } from '../../lib/index.js';
import { generateApiKey, InMemoryApiKeyStore, type ApiKeyRecord, type ApiKeyStore } from '../../lib/auth/index.js';
import type { Claims } from './claims.js';

/** What the API shows about a key: never the key, the secret or its hash. */
export interface ApiKeySummary {
  readonly id: string;
  readonly name: string;
  readonly scopes: readonly string[];
  readonly createdAt: string;
  readonly expiresAt: string | null;
  readonly revokedAt: string | null;
  readonly allowedCidrs: readonly string[] | null;
  readonly lastUsedAt: string | null;
}

/** What a tenant owner asks for when creating a key. */
export interface NewTenantApiKey {
  readonly tenantId: string;
  readonly name: string;
  readonly scopes: readonly string[];
  readonly expiresAt: Date | null;
  readonly allowedCidrs: readonly string[] | null;
}

/**
 * The tenants app's keys: the store the auth module verifies with, plus what the key routes
 * manage. In memory ({@link TenantApiKeys}) or in PostgreSQL (`PostgresTenantApiKeys`); either
 * may answer synchronously or with a promise.
 */
export interface TenantKeyDirectory extends ApiKeyStore {
  create(input: NewTenantApiKey): { id: string; key: string } | Promise<{ id: string; key: string }>;
  listForTenant(tenantId: string): ApiKeySummary[] | Promise<ApiKeySummary[]>;
  /** False when the tenant has no such key. The record stays for audit. */
  revokeForTenant(tenantId: string, id: string): boolean | Promise<boolean>;
}

/** The key directory the key routes and the auth module share. */
export const TENANT_KEYS = createToken<TenantKeyDirectory>('TenantKeys');

/**
 * A new key for a tenant: the key to show once, and the record to store (only the secret's
 * SHA-256 is in it). Keys are members of their tenant, never owners.
 *
 * @example
 * const { key, record } = newTenantKey({ tenantId: 'acme', name: 'ci', scopes: ['posts:read'], expiresAt: null, allowedCidrs: null });
 */
export function newTenantKey(input: NewTenantApiKey): { key: string; record: ApiKeyRecord } {
  const generated = generateApiKey();
  const claims: Claims = { sub: `api-key:${generated.id}`, roles: ['member'], tenantId: input.tenantId };
  return {
    key: generated.key,
    record: {
      id: generated.id,
      secretHash: generated.secretHash,
      claims,
      scopes: [...input.scopes],
      expiresAt: input.expiresAt,
      revokedAt: null,
      allowedCidrs: input.allowedCidrs && input.allowedCidrs.length > 0 ? [...input.allowedCidrs] : null,
    },
  };
}

/**
 * The tenants app's key store: the reference in-memory store plus a name and creation time per
 * key. A key's claims carry its tenant, so the tenancy guard treats keys and tokens alike.
 */
export class TenantApiKeys extends InMemoryApiKeyStore implements TenantKeyDirectory {
  private readonly details = new Map<string, { name: string; tenantId: string; createdAt: Date }>();
  private clock: Clock = { now: () => Date.now() };

  /** Uses the app's clock for creation and revocation times. */
  useClock(clock: Clock): this {
    this.clock = clock;
    return this;
  }

  create(input: NewTenantApiKey): { id: string; key: string } {
    const { key, record } = newTenantKey(input);
    this.add(record);
    this.details.set(record.id, { name: input.name, tenantId: input.tenantId, createdAt: new Date(this.clock.now()) });
    return { id: record.id, key };
  }

  listForTenant(tenantId: string): ApiKeySummary[] {
    return this.list()
      .filter((record) => this.details.get(record.id)?.tenantId === tenantId)
      .map((record) => {
        const details = this.details.get(record.id);
        return {
          id: record.id,
          name: details?.name ?? '',
          scopes: record.scopes ?? [],
          createdAt: (details?.createdAt ?? new Date(0)).toISOString(),
          expiresAt: record.expiresAt?.toISOString() ?? null,
          revokedAt: record.revokedAt?.toISOString() ?? null,
          allowedCidrs: record.allowedCidrs ?? null,
          lastUsedAt: this.lastUsedAt(record.id)?.toISOString() ?? null,
        };
      });
  }

  /** Revokes a key of this tenant; false when the tenant has no such key. The record stays for audit. */
  revokeForTenant(tenantId: string, id: string): boolean {
    if (this.details.get(id)?.tenantId !== tenantId) return false;
    return this.revoke(id, new Date(this.clock.now())) || true;
  }
}
