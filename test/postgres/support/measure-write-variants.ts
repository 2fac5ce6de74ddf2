// µs per write on one connection, interleaved in blocks so load drift hits all alike: the
// statement alone (pool.query), a bare BEGIN / statement / COMMIT, and the store's write path
// (writeInTransaction: BEGIN; SET LOCAL statement_timeout; SELECT txid_current() / statement / COMMIT).
//
//   eval "$(scripts/postgres/start-test-server.sh)"
//   node --import ./scripts/register-swc.mjs test/postgres/support/measure-write-variants.ts
import { createQueryRunner } from '../../../lib/postgres/index.js';
import type { SqlClient } from '../../../lib/postgres/index.js';
import { createTestDatabase, createTestPool, TEST_DATABASE_URL } from './test-database.js';

const BLOCKS = Number(process.env.BLOCKS ?? 40);
const PER_BLOCK = 50;

if (TEST_DATABASE_URL === undefined) throw new Error('set TEST_DATABASE_URL (scripts/postgres/start-test-server.sh)');
const database = await createTestDatabase();
const pool = createTestPool(database.url, 1);
try {
  await pool.query('CREATE TABLE counters (id int PRIMARY KEY, n int NOT NULL)');
  await pool.query('INSERT INTO counters VALUES (1, 0)');
  const UPDATE = 'UPDATE counters SET n = n + 1 WHERE id = $1 RETURNING n';
  const lending: SqlClient = pool;
  const queryOnly = createQueryRunner({ query: (text, params) => lending.query(text, params) }, 'bench', { onError: () => undefined });
  const transactional = createQueryRunner(pool, 'bench', { onError: () => undefined });
  const variants: Record<string, () => Promise<unknown>> = {
    'statement alone (runner, query() only)': () => queryOnly('bump', UPDATE, [1], 'write'),
    'bare BEGIN / statement / COMMIT': async () => {
      const c = await pool.connect();
      await c.query('BEGIN');
      await c.query(UPDATE, [1]);
      await c.query('COMMIT');
      c.release();
    },
    'BEGIN;SET LOCAL / statement / COMMIT': async () => {
      const c = await pool.connect();
      await c.query('BEGIN; SET LOCAL statement_timeout = 4500');
      await c.query(UPDATE, [1]);
      await c.query('COMMIT');
      c.release();
    },
    'BEGIN;SET LOCAL;txid / statement / COMMIT': async () => {
      const c = await pool.connect();
      await c.query('BEGIN; SET LOCAL statement_timeout = 4500; SELECT txid_current()::text AS xid');
      await c.query(UPDATE, [1]);
      await c.query('COMMIT');
      c.release();
    },
    'runner on a pool (writeInTransaction)': () => transactional('bump', UPDATE, [1], 'write'),
  };
  const samples = Object.fromEntries(Object.keys(variants).map((name) => [name, [] as number[]]));
  for (let block = -3; block < BLOCKS; block++) {
    for (const [name, run] of Object.entries(variants)) {
      const started = performance.now();
      for (let i = 0; i < PER_BLOCK; i++) await run();
      if (block >= 0) samples[name]?.push(((performance.now() - started) * 1_000) / PER_BLOCK);
    }
  }
  for (const [name, values] of Object.entries(samples)) {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.floor(q * (sorted.length - 1))]?.toFixed(0);
    console.log(`${name.padEnd(42)} median ${at(0.5)} µs per write (p25 ${at(0.25)}, p75 ${at(0.75)})`);
  }
} finally {
  await pool.end();
  await database.drop();
}
