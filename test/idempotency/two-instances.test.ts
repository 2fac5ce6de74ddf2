// Two app instances on one shared idempotency store: a retry that reaches the other instance gets
// the first instance's answer, and a duplicate sent to the other instance while the first still
// runs gets 409. On PGlite always (one database, two stores over it), on a PostgreSQL server
// (TEST_DATABASE_URL) and on Redis (TEST_REDIS_URL), each instance with its own connection.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, defineController, defineModule, idempotent, post, silentLogger, type IdempotencyStore } from '../../lib/index.js';
import { migrate, PostgresIdempotencyStore } from '../../lib/postgres/index.js';
import { RedisIdempotencyStore } from '../../lib/redis/index.js';
import { useMigratedPGlite } from '../postgres/support/pglite.js';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../postgres/support/test-database.js';
import { uniqueId } from '../store-contracts/contract-fixtures.js';

import { TEST_REDIS_URL, useRedisClients } from '../redis/redis-clients.js';

/** What both instances write to: the one database their orders go to. */
interface Orders {
  readonly created: string[];
  release: () => void;
  held: Promise<void> | undefined;
}

async function instance(name: string, store: IdempotencyStore, orders: Orders) {
  const controller = defineController({
    name: 'OrdersController',
    routes: () => ({
      create: post('/orders', { body: z.object({ item: z.string() }), status: 201, interceptors: [idempotent({ store, identify: (ctx) => ctx.header('x-caller') ?? undefined })] }, async (ctx) => {
        const id = `${name}-${orders.created.length + 1}`;
        orders.created.push(id);
        if (orders.held !== undefined) await orders.held;
        return { id, item: ctx.body.item, servedBy: name };
      }),
    }),
  });
  return createApp(defineModule({ name: `Instance${name}`, controllers: [controller] }), { logger: silentLogger });
}

function createOrder(app: Awaited<ReturnType<typeof instance>>, key: string): Promise<Response> {
  return app.request('/orders', { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': `"${key}"`, 'x-caller': 'alice' }, body: '{"item":"tea"}' });
}

function describeTwoInstances(name: string, stores: () => Promise<[IdempotencyStore, IdempotencyStore]>): void {
  describe(`two instances on one ${name} store`, () => {
    it('the retry that reaches the second instance is a replay of the first instance’s answer', async () => {
      const orders: Orders = { created: [], release: () => undefined, held: undefined };
      const [storeA, storeB] = await stores();
      const [a, b] = [await instance('a', storeA, orders), await instance('b', storeB, orders)];
      const key = uniqueId('key');
      const first = await createOrder(a, key);
      const retry = await createOrder(b, key);
      expect([first.status, await first.json()]).toEqual([201, { id: 'a-1', item: 'tea', servedBy: 'a' }]);
      expect([retry.status, await retry.json(), retry.headers.get('idempotent-replayed')], 'B replays A’s answer').toEqual([201, { id: 'a-1', item: 'tea', servedBy: 'a' }, 'true']);
      expect(orders.created, 'one order in the database').toEqual(['a-1']);
    });

    it('a duplicate sent to the second instance while the first still runs answers 409', async () => {
      const orders: Orders = { created: [], release: () => undefined, held: undefined };
      orders.held = new Promise<void>((resolve) => (orders.release = resolve));
      const [storeA, storeB] = await stores();
      const [a, b] = [await instance('a', storeA, orders), await instance('b', storeB, orders)];
      const key = uniqueId('key');
      const first = createOrder(a, key);
      while (orders.created.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      const duplicate = await createOrder(b, key);
      orders.release();
      expect([duplicate.status, duplicate.headers.get('retry-after')]).toEqual([409, '1']);
      expect((await first).status).toBe(201);
      expect(orders.created, 'one order in the database').toEqual(['a-1']);
    });
  });
}

describe('PGlite', () => {
  const lite = useMigratedPGlite();
  describeTwoInstances('PGlite', async () => [new PostgresIdempotencyStore(lite.db), new PostgresIdempotencyStore(lite.db)]);
});

describe.skipIf(TEST_DATABASE_URL === undefined)('real PostgreSQL server (TEST_DATABASE_URL)', () => {
  let database: TestDatabase;
  const pools: pg.Pool[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    const migrator = new pg.Pool({ connectionString: database.url, max: 1 });
    await migrate(migrator);
    await migrator.end();
  }, 30_000);
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await database?.drop();
  });
  const pool = () => {
    const made = new pg.Pool({ connectionString: database.url, max: 2 });
    made.on('error', () => undefined);
    pools.push(made);
    return made;
  };
  describeTwoInstances('PostgreSQL', async () => [new PostgresIdempotencyStore(pool()), new PostgresIdempotencyStore(pool())]);
});

describe.skipIf(TEST_REDIS_URL === undefined)('real Redis (TEST_REDIS_URL)', () => {
  const client = useRedisClients();
  describeTwoInstances('Redis', async () => {
    const name = uniqueId('app');
    return [new RedisIdempotencyStore(client(), { name }), new RedisIdempotencyStore(client(), { name })];
  });
});
