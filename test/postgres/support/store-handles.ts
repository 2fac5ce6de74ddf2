import type { Clock } from '../../../lib/index.js';
import type { RefreshTokenRecord } from '../../../lib/auth/sessions/issuing/index.js';
import { PostgresApiKeyStore, PostgresCredentialStore, PostgresRefreshTokenStore } from '../../../lib/auth/postgres/index.js';
import { PostgresRateLimitCounter } from '../../../lib/postgres/index.js';
import type { SqlClient } from '../../../lib/postgres/index.js';
import type { ApiKeyStoreHandle } from '../../store-contracts/api-key-store-contract.js';
import type { ContractClaims } from '../../store-contracts/contract-fixtures.js';
import type { CredentialStoreHandle } from '../../store-contracts/credential-store-contract.js';
import { uniqueId } from '../../store-contracts/contract-fixtures.js';

/** The PostgreSQL credential store as the contract drives it. */
export function credentialHandle(client: SqlClient): CredentialStoreHandle {
  const store = new PostgresCredentialStore<ContractClaims>(client);
  return { store, addAccount: (a) => store.addAccount(a), disable: (s) => store.disable(s), enable: (s) => store.enable(s) };
}

/** The PostgreSQL API key store as the contract drives it. */
export function apiKeyHandle(client: SqlClient): ApiKeyStoreHandle {
  const store = new PostgresApiKeyStore(client);
  return { store, add: (r) => store.add(r), revoke: (id, at) => store.revoke(id, at), lastUsedAt: (id) => store.lastUsedAt(id) };
}

/** A PostgreSQL counter under its own limiter name, so tests sharing a table never meet. */
export function rateLimitCounter(client: SqlClient, limit: number, windowMs: number, clock: Clock): PostgresRateLimitCounter {
  return new PostgresRateLimitCounter(client, { limit, windowMs, clock, name: uniqueId('limiter') });
}

/** Every token of a family, read through the store's own `find`. */
export async function familyTokens(client: SqlClient, familyId: string): Promise<RefreshTokenRecord[]> {
  const { rows } = await client.query<{ token_hash: string }>('SELECT token_hash FROM tessera_refresh_tokens WHERE family_id = $1', [familyId]);
  const store = new PostgresRefreshTokenStore(client);
  const records = await Promise.all(rows.map((row) => store.find(row.token_hash)));
  return records.filter((r): r is RefreshTokenRecord => r !== undefined);
}
