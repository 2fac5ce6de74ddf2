// The outside sign-in stores' contracts: in memory, on PGlite, and with TEST_DATABASE_URL on a
// real server (20 connections, so racing takes and links really race).
import { describe } from 'vitest';
import { InMemoryIdentityStore } from '../../lib/auth/federation/in-memory-identity-store.js';
import { InMemorySignInFlowStore } from '../../lib/auth/federation/in-memory-sign-in-flow-store.js';
import { PostgresIdentityStore, PostgresSignInFlowStore } from '../../lib/auth/postgres/index.js';
import { useMigratedPGlite } from '../postgres/support/pglite.js';
import { TEST_DATABASE_URL, useMigratedTestDatabase } from '../postgres/support/test-database.js';
import { describeIdentityStoreContract, describeSignInFlowStoreContract } from './outside-sign-in-stores-contract.js';

describeSignInFlowStoreContract('in memory', async () => new InMemorySignInFlowStore());
describeIdentityStoreContract('in memory', async () => new InMemoryIdentityStore());

const lite = useMigratedPGlite();
describeSignInFlowStoreContract('postgres on PGlite', async () => new PostgresSignInFlowStore(lite.db));
describeIdentityStoreContract('postgres on PGlite', async () => new PostgresIdentityStore(lite.db));

describe.skipIf(TEST_DATABASE_URL === undefined)('real PostgreSQL server (TEST_DATABASE_URL)', () => {
  const db = useMigratedTestDatabase(20);
  describeSignInFlowStoreContract('postgres server', async () => new PostgresSignInFlowStore(db.pool));
  describeIdentityStoreContract('postgres server', async () => new PostgresIdentityStore(db.pool));
});
