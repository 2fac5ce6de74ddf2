// The shared store contracts against the PostgreSQL stores on a real server (TEST_DATABASE_URL;
// CI sets it). Each file gets its own database. The race uses 50 separate connections, as 50
// instances would. Without TEST_DATABASE_URL the suites are reported as skipped, with the reason.
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { PostgresRefreshTokenStore } from '../../lib/auth/postgres/index.js';
import { migrate } from '../../lib/postgres/index.js';
import { apiKeyHandle, credentialHandle, familyTokens, rateLimitCounter } from '../postgres/support/store-handles.js';
import { connectClients, createTestDatabase, TEST_DATABASE_URL, createTestPool } from '../postgres/support/test-database.js';
import type { TestDatabase } from '../postgres/support/test-database.js';
import { describeApiKeyStoreContract } from './api-key-store-contract.js';
import { describeCredentialStoreContract } from './credential-store-contract.js';
import { describeRateLimitCounterContract } from './rate-limit-counter-contract.js';
import { describeRefreshRaceContract } from './refresh-race-contract.js';
import { describeRefreshTokenStoreContract } from './refresh-token-store-contract.js';


describe.skipIf(TEST_DATABASE_URL === undefined)('real PostgreSQL server (TEST_DATABASE_URL)', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    database = await createTestDatabase();
    // Several connections, so concurrent operations in the contracts really run in parallel.
    pool = createTestPool(database.url, 20);
    await migrate(pool);
  }, 30_000);
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  describeCredentialStoreContract('postgres server', async () => credentialHandle(pool));
  describeRefreshTokenStoreContract('postgres server', async (clock) => new PostgresRefreshTokenStore(pool, { clock }));
  describeRefreshRaceContract('postgres server, 50 connections', 50, async (clock, callers) => {
    const clients = await connectClients(database.url, callers);
    return {
      stores: clients.map((client) => new PostgresRefreshTokenStore(client, { clock })),
      familyTokens: (familyId) => familyTokens(pool, familyId),
      close: async () => {
        await Promise.all(clients.map((c) => c.end()));
      },
    };
  });
  describeApiKeyStoreContract('postgres server', async () => apiKeyHandle(pool));
  describeRateLimitCounterContract('postgres server', async (limit, windowMs, clock) => rateLimitCounter(pool, limit, windowMs, clock));
});
