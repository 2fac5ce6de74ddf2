// Revocation is never lost to a concurrent `touch`, on a real server with separate connections:
// touch updates only last_used_at, and PostgreSQL re-reads a row changed by a concurrent
// transaction before updating it, so the revoke's revoked_at survives every interleaving.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../lib/auth/credentials/api-keys/index.js';
import { PostgresApiKeyStore } from '../../lib/auth/postgres/index.js';
import { migrate } from '../../lib/postgres/index.js';
import { connectClients, createTestDatabase, TEST_DATABASE_URL } from './support/test-database.js';
import type { TestDatabase } from './support/test-database.js';


describe.skipIf(TEST_DATABASE_URL === undefined)('touch and revocation from separate connections (TEST_DATABASE_URL)', () => {
  let database: TestDatabase;
  let clients: pg.Client[];
  beforeAll(async () => {
    database = await createTestDatabase();
    clients = await connectClients(database.url, 21);
    await migrate(clients[0] as pg.Client);
  }, 30_000);
  afterAll(async () => {
    await Promise.all((clients ?? []).map((c) => c.end()));
    await database?.drop();
  });

  it('20 rounds of 20 concurrent touches around one revoke: the key ends revoked every time', async () => {
    const stores = clients.map((client) => new PostgresApiKeyStore(client));
    const [revoker, ...touchers] = stores as [PostgresApiKeyStore, ...PostgresApiKeyStore[]];
    for (let round = 0; round < 20; round += 1) {
      const generated = generateApiKey();
      await revoker.add({ id: generated.id, secretHash: generated.secretHash, claims: { sub: 'k' }, scopes: [] });
      const revokedAt = new Date(Date.UTC(2026, 0, 1, 0, 0, round));
      const touches = touchers.map((store, i) => store.touch(generated.id, new Date(revokedAt.getTime() + (i - 10) * 1_000)));
      await Promise.all([...touches.slice(0, 10), revoker.revoke(generated.id, revokedAt), ...touches.slice(10)]);
      expect((await revoker.find(generated.id))?.revokedAt).toEqual(revokedAt);
      expect((await revoker.lastUsedAt(generated.id))?.getTime()).toBe(revokedAt.getTime() + 9_000);
    }
  });
});
