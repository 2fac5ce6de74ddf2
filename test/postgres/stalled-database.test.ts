// A database that stalls mid-refresh must not log users out. A second connection holds the
// refresh-token table locked for longer than the store's query timeout, three times, while
// refresh chains run (each retrying a 503 with the same token, as a client does). A store that
// answered 503 at the timeout while its rotation went on to commit would turn that retry into
// token reuse and revoke the family; a 503 must mean nothing was committed. On a pool the writes
// run in a transaction whose COMMIT is never sent late; on a client with query() alone they wait
// for their outcome (settle). Hangs of the whole server process: server-hang.test.ts.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHttpException } from '../../lib/index.js';
import { PostgresRefreshTokenStore } from '../../lib/auth/postgres/index.js';
import { migrate } from '../../lib/postgres/index.js';
import type { SqlClient } from '../../lib/postgres/index.js';
import { chainService, uniqueId } from '../store-contracts/contract-fixtures.js';
import { createTestDatabase, createTestPool, TEST_DATABASE_URL, type TestDatabase } from './support/test-database.js';

const QUERY_TIMEOUT_MS = 200;
const STALL_MS = 700;
const CHAINS = 12;
const REFRESHES_PER_CHAIN = 8;

interface ChainsOutcome {
  /** Chains that got a 401 for a token they had never used successfully: logged out. */
  readonly killed: number;
  /** 503 answers the chains retried. */
  readonly unavailable: number;
  readonly completed: number;
}

/** The pool without its connect(): one statement per query, as PGlite runs them. */
function queryOnly(client: SqlClient): SqlClient {
  return { query: (text, params) => client.query(text, params) };
}

async function runChains(client: SqlClient, lockPool: pg.Pool, settleTimeoutMs: number | undefined): Promise<ChainsOutcome> {
  const store = new PostgresRefreshTokenStore(client, { queryTimeoutMs: QUERY_TIMEOUT_MS, settleTimeoutMs, onError: () => undefined });
  const subjects = Array.from({ length: CHAINS }, () => uniqueId('stall'));
  const service = chainService(subjects, store);
  let killed = 0;
  let unavailable = 0;
  let completed = 0;
  let stalling = true;
  const staller = (async () => {
    for (let stall = 0; stall < 3; stall++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const client = await lockPool.connect();
      try {
        await client.query('BEGIN');
        await client.query('LOCK TABLE tessera_refresh_tokens IN ACCESS EXCLUSIVE MODE');
        await new Promise((resolve) => setTimeout(resolve, STALL_MS));
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    }
    stalling = false;
  })();
  const chains = subjects.map(async (subject) => {
    let token = (await service.issueTokens(subject)).refreshToken;
    // Refreshing all through the stalls, and at least REFRESHES_PER_CHAIN times.
    for (let done = 0; stalling || done < REFRESHES_PER_CHAIN; ) {
      try {
        token = (await service.refresh(token)).refreshToken;
        done++;
      } catch (error) {
        if (isHttpException(error) && error.status === 503) {
          unavailable++;
          continue;
        }
        if (isHttpException(error) && error.status === 401) {
          killed++;
          return;
        }
        throw error;
      }
    }
    completed++;
  });
  await Promise.all([...chains, staller]);
  return { killed, unavailable, completed };
}

describe.skipIf(TEST_DATABASE_URL === undefined)('a database that stalls mid-refresh (TEST_DATABASE_URL)', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  let lockPool: pg.Pool;
  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createTestPool(database.url, CHAINS);
    lockPool = createTestPool(database.url, 1);
    await migrate(pool);
  }, 30_000);
  afterAll(async () => {
    await pool?.end();
    await lockPool?.end();
    await database?.drop();
  });

  it('logs nobody out on a pool (writes in transactions): every chain completes, retrying its 503s with the same token', async () => {
    const outcome = await runChains(pool, lockPool, undefined);
    console.log(`[stall] pool, writes in transactions: ${JSON.stringify(outcome)}`);
    expect(outcome.killed, `chains logged out (503s retried: ${outcome.unavailable})`).toBe(0);
    expect(outcome.completed).toBe(CHAINS);
    expect(outcome.unavailable, 'writes and reads gave up at the query timeout during the stalls').toBeGreaterThan(0);
  }, 60_000);

  it('logs nobody out on a client with query() alone (writes settle): every chain completes', async () => {
    const outcome = await runChains(queryOnly(pool), lockPool, undefined);
    console.log(`[stall] query() alone, settling writes: ${JSON.stringify(outcome)}`);
    expect(outcome.killed, `chains logged out (503s retried: ${outcome.unavailable})`).toBe(0);
    expect(outcome.completed).toBe(CHAINS);
    // The scenario really stalled the store: reads timed out while the table was locked.
    expect(outcome.unavailable, 'reads gave up at the query timeout during the stalls').toBeGreaterThan(0);
  }, 60_000);

  it('control: abandoning writes at the query timeout (query() alone, settleTimeoutMs 0) does log users out', async () => {
    const outcome = await runChains(queryOnly(pool), lockPool, 0);
    console.log(`[stall] writes abandoned at the timeout: ${JSON.stringify(outcome)}`);
    expect(outcome.killed, 'the scenario reproduces the bug this guards against').toBeGreaterThan(0);
  }, 60_000);
});
