// The IdempotencyStore contract against every store: in memory, PostgreSQL on PGlite (always),
// on a real server (TEST_DATABASE_URL) and Redis (TEST_REDIS_URL); CI sets both. Without them those
// suites are reported as skipped, with the reason.
import { describe, expect, it } from 'vitest';
import { createManualClock, InMemoryIdempotencyStore } from '../../lib/index.js';
import { PostgresIdempotencyStore } from '../../lib/postgres/index.js';
import { RedisIdempotencyStore } from '../../lib/redis/index.js';
import { useMigratedPGlite } from '../postgres/support/pglite.js';
import { TEST_DATABASE_URL, useMigratedTestDatabase } from '../postgres/support/test-database.js';
import { T0, uniqueId } from './contract-fixtures.js';
import { describeIdempotencyStoreContract } from './idempotency-store-contract.js';

import { TEST_REDIS_URL, useRedisClients } from '../redis/redis-clients.js';

describeIdempotencyStoreContract('in-memory', async () => {
  const clock = createManualClock(T0);
  return { store: new InMemoryIdempotencyStore({ clock }), clock };
});

describe('postgres on PGlite', () => {
  const lite = useMigratedPGlite();
  describeIdempotencyStoreContract('postgres on PGlite', async () => {
    const clock = createManualClock(T0);
    return { store: new PostgresIdempotencyStore(lite.db, { clock }), clock };
  });

  it('purgeExpired deletes expired claims and answers, and only those', async () => {
    const clock = createManualClock(T0);
    const store = new PostgresIdempotencyStore(lite.db, { clock });
    const [lapsed, answered, live] = [uniqueId('id'), uniqueId('id'), uniqueId('id')];
    await store.claim(lapsed, 'fp', 1_000);
    const claim = await store.claim(answered, 'fp', 1_000);
    if (claim.state !== 'claimed') throw new Error('not claimed');
    await store.complete(answered, claim.token, 'answer', 2_000);
    await store.claim(live, 'fp', 60_000);
    clock.advance(2_000);
    await store.purgeExpired();
    const { rows } = await lite.db.query<{ id: string }>('SELECT id FROM tessera_idempotency WHERE id = ANY($1) ORDER BY id', [[lapsed, answered, live]]);
    expect(rows.map((row) => row.id), 'only the live claim is left').toEqual([live]);
  });
});

describe.skipIf(TEST_DATABASE_URL === undefined)('real PostgreSQL server (TEST_DATABASE_URL)', () => {
  // Several connections, so the concurrent claims really run in parallel.
  const db = useMigratedTestDatabase(20);
  describeIdempotencyStoreContract('postgres server', async () => {
    const clock = createManualClock(T0);
    return { store: new PostgresIdempotencyStore(db.pool, { clock }), clock };
  });
});

describe.skipIf(TEST_REDIS_URL === undefined)('real Redis (TEST_REDIS_URL)', () => {
  const client = useRedisClients();
  // Redis keeps time itself (PX): the contract lets real time pass for it.
  describeIdempotencyStoreContract('redis', async () => ({ store: new RedisIdempotencyStore(client(), { name: uniqueId('app') }) }));
});
