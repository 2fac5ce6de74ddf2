// The shared store contracts against the PostgreSQL stores on a real server (TEST_DATABASE_URL;
// CI sets it). Each file gets its own database. The race uses 50 separate connections, as 50
// instances would. Without TEST_DATABASE_URL the suites are reported as skipped, with the reason.
import { describe } from 'vitest';
import { PostgresRefreshTokenStore } from '../../lib/auth/postgres/index.js';
import { apiKeyHandle, credentialHandle, familyTokens, rateLimitCounter } from '../postgres/support/store-handles.js';
import { connectClients, TEST_DATABASE_URL, useMigratedTestDatabase } from '../postgres/support/test-database.js';
import { describeApiKeyStoreContract } from './api-key-store-contract.js';
import { describeCredentialStoreContract } from './credential-store-contract.js';
import { describeRateLimitCounterContract } from './rate-limit-counter-contract.js';
import { describeRefreshRaceContract } from './refresh-race-contract.js';
import { describeRefreshTokenStoreContract } from './refresh-token-store-contract.js';


describe.skipIf(TEST_DATABASE_URL === undefined)('real PostgreSQL server (TEST_DATABASE_URL)', () => {
  // Several connections, so concurrent operations in the contracts really run in parallel.
  const db = useMigratedTestDatabase(20);

  describeCredentialStoreContract('postgres server', async () => credentialHandle(db.pool));
  describeRefreshTokenStoreContract('postgres server', async (clock) => new PostgresRefreshTokenStore(db.pool, { clock }));
  describeRefreshRaceContract('postgres server, 50 connections', 50, async (clock, callers) => {
    const clients = await connectClients(db.url, callers);
    return {
      stores: clients.map((client) => new PostgresRefreshTokenStore(client, { clock })),
      familyTokens: (familyId) => familyTokens(db.pool, familyId),
      close: async () => {
        await Promise.all(clients.map((c) => c.end()));
      },
    };
  });
  describeApiKeyStoreContract('postgres server', async () => apiKeyHandle(db.pool));
  describeRateLimitCounterContract('postgres server', async (limit, windowMs, clock) => rateLimitCounter(db.pool, limit, windowMs, clock));
});
