import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createQueryRunner } from './run-query.js';
import type { SqlResult } from './sql-client.js';
import { lendsConnections } from './sql-pool.js';
import type { SqlPool } from './sql-pool.js';
import { StoreUnavailableError } from './store-unavailable-error.js';

type Answer = { rows: unknown[] } | 'never' | Error;

/** A server error as pg reports one: a SQLSTATE and a severity; the session lives on. */
function serverError(code: string): Error {
  return Object.assign(new Error(`server said ${code}`), { code, severity: 'ERROR' });
}

/**
 * A pool lending one scripted connection: `answer` decides each statement's answer by its text.
 * Records what was sent on the connection, what the pool itself ran, and how it was given back.
 */
function scriptedPool(answer: (text: string) => Answer, poolAnswer: (text: string) => Answer = () => ({ rows: [] })) {
  const sent: string[] = [];
  const pooled: string[] = [];
  const releases: (boolean | Error | undefined)[] = [];
  const respond = <Row>(result: Answer): Promise<SqlResult<Row>> =>
    result === 'never' ? new Promise(() => undefined) : result instanceof Error ? Promise.reject(result) : Promise.resolve(result as SqlResult<Row>);
  const pool: SqlPool = {
    query: <Row>(text: string) => {
      pooled.push(text);
      return respond<Row>(poolAnswer(text));
    },
    connect: async () => ({
      query: <Row>(text: string) => {
        sent.push(text);
        return respond<Row>(answer(text));
      },
      release: (destroy?: boolean | Error) => void releases.push(destroy),
    }),
  };
  return { pool, sent, pooled, releases };
}

const opening = (text: string) => text.startsWith('BEGIN');
const committed = { rows: [] };
const quiet = { onError: () => undefined };

/** Answers BEGIN with a transaction id, the statement with one row, and COMMIT as `commit` says. */
function healthy(commit: Answer = committed, statement: Answer = { rows: [{ one: 1 }] }) {
  return (text: string): Answer => (opening(text) ? { rows: [{ xid: '742' }] } : text === 'COMMIT' ? commit : text === 'ROLLBACK' ? committed : statement);
}

describe('writes on a pool: a transaction whose COMMIT is sent only in time', () => {
  it('answers the rows after BEGIN (with the server-side bound), the statement and COMMIT, and gives the connection back', async () => {
    const { pool, sent, releases } = scriptedPool(healthy());
    const run = createQueryRunner(pool, 'test', { queryTimeoutMs: 1_000, ...quiet });
    await expect(run('rotate', 'UPDATE t SET x = 1 RETURNING 1 AS one', [], 'write')).resolves.toEqual([{ one: 1 }]);
    expect(sent[0], 'the opening sets the server-side bound inside the transaction').toMatch(/^BEGIN; SET LOCAL statement_timeout = \d+; SELECT txid_current\(\)/);
    expect(sent.slice(1)).toEqual(['UPDATE t SET x = 1 RETURNING 1 AS one', 'COMMIT']);
    expect(releases, 'the connection goes back to the pool, not closed').toEqual([false]);
  });

  it('reads on a pool run as one statement, without a lent connection', async () => {
    const { pool, sent, pooled } = scriptedPool(healthy());
    const run = createQueryRunner(pool, 'test', { queryTimeoutMs: 1_000, ...quiet });
    await run('find', 'SELECT 1', []);
    expect(sent, 'no transaction for a read').toEqual([]);
    expect(pooled).toEqual(['SELECT 1']);
  });

  it('never sends COMMIT for a statement that did not answer in time: it closes the connection and answers 503', async () => {
    const { pool, sent, releases } = scriptedPool(healthy(committed, 'never'));
    const failures: string[] = [];
    const run = createQueryRunner(pool, 'test', { queryTimeoutMs: 30, settleTimeoutMs: 10_000, onError: (f) => failures.push(`${f.operation}:${f.code}`) });
    const started = performance.now();
    await expect(run('rotate', 'UPDATE t SET x = 1', [], 'write')).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(performance.now() - started, 'answered at the query timeout, not after the settle time').toBeLessThan(1_000);
    expect(sent, 'COMMIT was never sent').not.toContain('COMMIT');
    expect(releases, 'the connection is closed, so the server rolls the transaction back').toEqual([true]);
    expect(failures).toEqual(['rotate:TIMEOUT']);
  });

  it('closes the connection when BEGIN does not answer in time, before the statement is sent', async () => {
    const { pool, sent, releases } = scriptedPool((text) => (opening(text) ? 'never' : committed));
    const run = createQueryRunner(pool, 'test', { queryTimeoutMs: 30, ...quiet });
    await expect(run('rotate', 'UPDATE t SET x = 1', [], 'write')).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(sent).toHaveLength(1);
    expect(releases).toEqual([true]);
  });

  it('answers 503 without sending anything when no connection is lent in time, and returns the late one to the pool', async () => {
    const releases: (boolean | Error | undefined)[] = [];
    let lend: (() => void) | undefined;
    const pool: SqlPool = {
      query: async () => ({ rows: [] }),
      connect: () =>
        new Promise((resolve) => {
          lend = () => resolve({ query: async () => ({ rows: [] }), release: (destroy) => void releases.push(destroy) });
        }),
    };
    const run = createQueryRunner(pool, 'test', { queryTimeoutMs: 20, ...quiet });
    await expect(run('rotate', 'UPDATE t SET x = 1', [], 'write')).rejects.toBeInstanceOf(StoreUnavailableError);
    lend?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(releases, 'nothing was sent on it, so it goes back as it is').toEqual([undefined]);
  });

  it('rolls back after a server error and keeps the connection; a broken constraint is the caller\'s conflict', async () => {
    const { pool, sent, releases } = scriptedPool(healthy(committed, serverError('23505')));
    const run = createQueryRunner(pool, 'test', { queryTimeoutMs: 1_000, ...quiet }, () => new Error('duplicate'));
    await expect(run('create', 'INSERT INTO t VALUES (1)', [], 'write')).rejects.toThrow('duplicate');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sent.slice(1)).toEqual(['INSERT INTO t VALUES (1)', 'ROLLBACK']);
    expect(releases).toEqual([false]);
  });

  it('answers 503 and closes the connection when the statement fails without a server answer (a dropped socket, pg query_timeout)', async () => {
    const { pool, sent, releases } = scriptedPool(healthy(committed, new Error('Query read timeout')));
    const run = createQueryRunner(pool, 'test', { queryTimeoutMs: 1_000, ...quiet });
    await expect(run('rotate', 'UPDATE t SET x = 1', [], 'write')).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(sent).not.toContain('COMMIT');
    expect(releases).toEqual([true]);
  });

  it('answers the rows when COMMIT\'s answer was lost but the server says the transaction committed', async () => {
    const { pool, pooled, releases } = scriptedPool(healthy(new Error('Connection terminated')), () => ({ rows: [{ status: 'committed' }] }));
    const run = createQueryRunner(pool, 'test', { queryTimeoutMs: 1_000, ...quiet });
    await expect(run('rotate', 'UPDATE t SET x = 1 RETURNING 1 AS one', [], 'write')).resolves.toEqual([{ one: 1 }]);
    expect(pooled, 'asked the server by transaction id').toEqual(['SELECT txid_status($1::bigint) AS status']);
    expect(releases).toEqual([true]);
  });

  it('answers 503 (ROLLED_BACK) when COMMIT\'s answer was lost and the server rolled the transaction back', async () => {
    const { pool } = scriptedPool(healthy(new Error('Connection terminated')), () => ({ rows: [{ status: 'aborted' }] }));
    const failures: string[] = [];
    const run = createQueryRunner(pool, 'test', { queryTimeoutMs: 1_000, onError: (f) => failures.push(`${f.operation}:${f.code}`) });
    await expect(run('rotate', 'UPDATE t SET x = 1', [], 'write')).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(failures).toEqual(['rotate:ROLLED_BACK']);
  });

  it('asks again while the server reports the transaction in progress, until it has ended', async () => {
    const statuses = ['in progress', 'in progress', 'committed'];
    const { pool, pooled } = scriptedPool(healthy(new Error('Connection terminated')), () => ({ rows: [{ status: statuses.shift() }] }));
    const run = createQueryRunner(pool, 'test', { queryTimeoutMs: 1_000, ...quiet });
    await expect(run('rotate', 'UPDATE t SET x = 1 RETURNING 1 AS one', [], 'write')).resolves.toEqual([{ one: 1 }]);
    expect(pooled).toHaveLength(3);
  });

  it('waits past the query timeout for a COMMIT already sent, then answers 503 with the outcome unknown', async () => {
    const { pool, releases } = scriptedPool(healthy('never'));
    const failures: string[] = [];
    const run = createQueryRunner(pool, 'test', { queryTimeoutMs: 20, settleTimeoutMs: 60, onError: (f) => failures.push(`${f.operation}:${f.code}`) });
    const started = performance.now();
    await expect(run('rotate', 'UPDATE t SET x = 1', [], 'write')).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(performance.now() - started, 'waited for the settle time too').toBeGreaterThanOrEqual(70);
    expect(failures).toEqual(['rotate:OUTCOME_UNKNOWN']);
    expect(releases).toEqual([true]);
  });

  it('a COMMIT that fails on the server (a deferred check) rolled back: 503, the connection kept', async () => {
    const { pool, releases } = scriptedPool(healthy(serverError('40001')));
    const run = createQueryRunner(pool, 'test', { queryTimeoutMs: 1_000, ...quiet });
    await expect(run('rotate', 'UPDATE t SET x = 1', [], 'write')).rejects.toBeInstanceOf(StoreUnavailableError);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(releases).toEqual([false]);
  });
});

describe('lendsConnections', () => {
  it("takes pg's Pool for a pool", () => {
    expect(lendsConnections(new pg.Pool())).toBe(true);
  });

  it("takes pg's Client for a single connection: its connect() opens it, it lends nothing", () => {
    expect(lendsConnections(new pg.Client())).toBe(false);
  });

  it('takes a connection already lent (it has release) for a single connection', () => {
    const lent = { query: async () => ({ rows: [] }), connect: async () => undefined, release: () => undefined };
    expect(lendsConnections(lent as never)).toBe(false);
  });

  it('takes a client with query() alone (PGlite, a wrapper) for a single connection', () => {
    expect(lendsConnections({ query: async () => ({ rows: [] }) })).toBe(false);
  });
});
