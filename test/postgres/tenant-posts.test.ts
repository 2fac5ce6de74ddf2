// examples/tenants' posts repository: the PostgreSQL one behaves exactly like the in-memory one
// (so the HTTP answers do not depend on where posts live), and its per-tenant id counter hands
// out distinct, gap-free ids under concurrent creates, on PGlite and on a real server.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock, HttpException } from '../../lib/index.js';
import { migrate } from '../../lib/postgres/index.js';
import { PostgresTenantPosts } from '../../examples/tenants/postgres/postgres-tenant-posts.js';
import { migrateTenantPosts } from '../../examples/tenants/postgres/tenant-posts-schema.js';
import { InMemoryTenantPosts } from '../../examples/tenants/tenant-posts.js';
import type { TenantPostsRepository } from '../../examples/tenants/tenant-posts.js';
import { uniqueId } from '../store-contracts/contract-fixtures.js';
import { useMigratedPGlite } from './support/pglite.js';
import { createTestDatabase, TEST_DATABASE_URL, createTestPool } from './support/test-database.js';
import type { TestDatabase } from './support/test-database.js';

const T0 = Date.parse('2026-11-21T12:00:00Z');

/** A call's outcome as plain data: the value, or the HTTP error it would answer. */
async function outcome(call: () => Promise<unknown>): Promise<unknown> {
  try {
    return { ok: await call() };
  } catch (error) {
    if (error instanceof HttpException) return { status: error.status, message: error.message };
    throw error;
  }
}

/** Every operation, the 404s included, on two tenants; the clock moves between writes. */
async function scenario(posts: TenantPostsRepository, advance: (ms: number) => void): Promise<unknown[]> {
  const [acme, globex] = [uniqueId('acme'), uniqueId('globex')];
  const seen: unknown[] = [];
  const step = async (call: () => Promise<unknown>) => seen.push(await outcome(call));
  await step(() => posts.list(acme));
  await step(() => posts.create(acme, { title: 'One', body: '' }));
  advance(1_500);
  await step(() => posts.create(acme, { title: 'Two', body: 'second' }));
  await step(() => posts.create(globex, { title: 'Elsewhere', body: '' }));
  await step(() => posts.update(acme, '1', { body: 'edited' }));
  await step(() => posts.update(acme, '2', { title: 'Renamed' }));
  await step(() => posts.update(acme, '2', {}));
  await step(() => posts.remove(acme, '1'));
  for (const id of ['1', '9', 'abc', '01']) {
    await step(() => posts.get(acme, id));
    await step(() => posts.update(acme, id, { title: 'x' }));
    await step(() => posts.remove(acme, id));
  }
  advance(2_000);
  // A deleted id is never handed out again.
  await step(() => posts.create(acme, { title: 'Three', body: '' }));
  await step(() => posts.get(acme, '2'));
  await step(() => posts.get(globex, '2'));
  await step(() => posts.list(acme));
  await step(() => posts.list(globex));
  return seen;
}

/** 20 creates at once in a fresh tenant: answers the ids they got, in numeric order. */
async function concurrentIds(posts: TenantPostsRepository): Promise<string[]> {
  const tenant = uniqueId('busy');
  const created = await Promise.all(Array.from({ length: 20 }, (_, i) => posts.create(tenant, { title: `post ${i}`, body: '' })));
  expect((await posts.list(tenant)).map((p) => p.id)).toEqual(Array.from({ length: 20 }, (_, i) => String(i + 1)));
  return created.map((p) => p.id).sort((a, b) => Number(a) - Number(b));
}

const ONE_TO_TWENTY = Array.from({ length: 20 }, (_, i) => String(i + 1));

describe('tenant posts on PGlite', () => {
  const lite = useMigratedPGlite();

  it('answers exactly as the in-memory repository does, 404s included', async () => {
    const memoryClock = createManualClock(T0);
    const sqlClock = createManualClock(T0);
    const sql = new PostgresTenantPosts(lite.db, sqlClock);
    // The app runs this at start; the library-migrated database has no posts tables yet.
    await sql.onModuleInit();
    const expected = await scenario(new InMemoryTenantPosts(memoryClock), (ms) => memoryClock.advance(ms));
    expect(await scenario(sql, (ms) => sqlClock.advance(ms))).toEqual(expected);
    // Spot checks, so a bug shared by both could not pass unnoticed.
    expect(expected[1]).toEqual({ ok: { id: '1', title: 'One', body: '', createdAt: '2026-11-21T12:00:00.000Z' } });
    expect(expected).toContainEqual({ status: 404, message: 'Post 1 not found' });
    expect(expected.at(-2)).toEqual({ ok: [expect.objectContaining({ id: '2', title: 'Renamed', body: 'second' }), expect.objectContaining({ id: '3', createdAt: '2026-11-21T12:00:03.500Z' })] });
  });

  it('gives 20 concurrent creates in one tenant the ids 1..20', async () => {
    const posts = new PostgresTenantPosts(lite.db, createManualClock(T0));
    await posts.onModuleInit();
    expect(await concurrentIds(posts)).toEqual(ONE_TO_TWENTY);
  });
});


describe.skipIf(TEST_DATABASE_URL === undefined)('tenant posts on a real server (TEST_DATABASE_URL)', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    database = await createTestDatabase();
    // One connection per create, so the 20 really run at once in the server.
    pool = createTestPool(database.url, 20);
    await migrate(pool);
  }, 30_000);
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  it('creates its tables once when several instances migrate at the same moment', async () => {
    await Promise.all(Array.from({ length: 5 }, () => migrateTenantPosts(pool)));
    const { rows } = await pool.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_name LIKE 'tenant\\_post%' ORDER BY 1");
    expect(rows.map((r) => r.name)).toEqual(['tenant_post_counters', 'tenant_posts']);
  });

  it('gives 20 concurrent creates in one tenant, each on its own connection, the ids 1..20', async () => {
    await migrateTenantPosts(pool);
    // Two repositories on the pool, as two instances would be.
    const [a, b] = [new PostgresTenantPosts(pool, createManualClock(T0)), new PostgresTenantPosts(pool, createManualClock(T0))];
    const tenant = uniqueId('busy');
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).create(tenant, { title: `post ${i}`, body: '' })));
    expect(created.map((p) => p.id).sort((x, y) => Number(x) - Number(y))).toEqual(ONE_TO_TWENTY);
    expect(await concurrentIds(a)).toEqual(ONE_TO_TWENTY);
  });
});
