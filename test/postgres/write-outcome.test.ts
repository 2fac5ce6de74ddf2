// Writes on a pool run in a transaction (lib/postgres/write-in-transaction.ts). On a real server:
// a statement the server cancels at its bound stores nothing; a COMMIT whose answer pg's
// query_timeout threw away is resolved by asking the server (txid_status); a COMMIT the server
// refuses stores nothing; a broken constraint keeps the connection. Commit-time work is made slow
// or failing with deferred constraint triggers.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueryRunner, StoreUnavailableError } from '../../lib/postgres/index.js';
import { createTestDatabase, createTestPool, TEST_DATABASE_URL, type TestDatabase } from './support/test-database.js';

const COMMIT_SLEEP_S = 0.4;

const SCHEMA = `
CREATE TABLE items (id int PRIMARY KEY);
CREATE TABLE slow_commits (id int PRIMARY KEY);
CREATE TABLE refused_commits (id int PRIMARY KEY);
CREATE FUNCTION sleep_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(${COMMIT_SLEEP_S}); RETURN NULL; END $$;
CREATE FUNCTION refuse_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused at commit'; END $$;
CREATE CONSTRAINT TRIGGER slow AFTER INSERT ON slow_commits DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION sleep_at_commit();
CREATE CONSTRAINT TRIGGER refuse AFTER INSERT ON refused_commits DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_at_commit();
`;

describe.skipIf(TEST_DATABASE_URL === undefined)('writes on a pool, on a real server (TEST_DATABASE_URL)', () => {
  let database: TestDatabase;
  let admin: pg.Pool;
  const pools: pg.Pool[] = [];
  const pool = (options: pg.PoolConfig = {}) => {
    const created = createTestPool(database.url, 2, options);
    pools.push(created);
    return created;
  };
  const stored = async (table: string, id: number) => (await admin.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id])).rows.length === 1;

  beforeAll(async () => {
    database = await createTestDatabase();
    admin = createTestPool(database.url, 1);
    await admin.query(SCHEMA);
  }, 30_000);
  afterAll(async () => {
    await Promise.all([...pools, admin].map((p) => p?.end()));
    await database?.drop();
  });

  it('a statement slower than the bound is cancelled by the server inside the transaction: 503 at the bound, nothing stored', async () => {
    const codes: (string | undefined)[] = [];
    const run = createQueryRunner(pool(), 'test', { queryTimeoutMs: 300, onError: (f) => codes.push(f.code) });
    const started = performance.now();
    await expect(run('insert', 'INSERT INTO items SELECT $1::int FROM pg_sleep(1) RETURNING id', [1], 'write')).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(performance.now() - started, 'answered at the query timeout').toBeLessThan(900);
    expect(codes, 'the server cancelled it (SET LOCAL statement_timeout) before the client gave up').toEqual(['57014']);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await stored('items', 1), 'stored after the 503').toBe(false);
  });

  it("a COMMIT whose answer pg's query_timeout threw away is resolved by asking the server: the rows, and the row is stored", async () => {
    const run = createQueryRunner(pool({ query_timeout: 100 }), 'test', { queryTimeoutMs: 2_000, onError: () => undefined });
    const started = performance.now();
    await expect(run('insert', 'INSERT INTO slow_commits VALUES ($1) RETURNING id', [7], 'write')).resolves.toEqual([{ id: 7 }]);
    expect(performance.now() - started, 'waited for the slow COMMIT').toBeGreaterThanOrEqual(COMMIT_SLEEP_S * 1_000);
    expect(await stored('slow_commits', 7)).toBe(true);
  });

  it('a COMMIT the server refuses answers 503 and stores nothing', async () => {
    const run = createQueryRunner(pool(), 'test', { queryTimeoutMs: 2_000, onError: () => undefined });
    await expect(run('insert', 'INSERT INTO refused_commits VALUES ($1) RETURNING id', [3], 'write')).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(await stored('refused_commits', 3)).toBe(false);
  });

  it('a broken constraint is the caller\'s conflict, and the connection is rolled back and kept', async () => {
    const lending = pool();
    const run = createQueryRunner(lending, 'test', { queryTimeoutMs: 2_000, onError: () => undefined }, () => new Error('duplicate id'));
    await run('insert', 'INSERT INTO items VALUES ($1) RETURNING id', [5], 'write');
    await expect(run('insert', 'INSERT INTO items VALUES ($1) RETURNING id', [5], 'write')).rejects.toThrow('duplicate id');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect({ total: lending.totalCount, idle: lending.idleCount }, 'one connection, back in the pool').toEqual({ total: 1, idle: 1 });
    await expect(run('insert', 'INSERT INTO items VALUES ($1) RETURNING id', [6], 'write'), 'the kept connection is usable').resolves.toEqual([{ id: 6 }]);
  });
});
