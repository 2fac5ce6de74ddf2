import { describe, expect, it } from 'vitest';
import { createQueryRunner } from './run-query.js';
import type { SqlClient } from './sql-client.js';
import { StoreUnavailableError } from './store-unavailable-error.js';

/** A client whose one statement answers after `ms` (or never), recording that it ran. */
function slowClient(ms: number | 'never', rows: unknown[] = [{ one: 1 }]): SqlClient {
  return {
    query: <Row>() =>
      new Promise<{ rows: Row[] }>((resolve) => {
        if (ms !== 'never') setTimeout(() => resolve({ rows: rows as Row[] }), ms);
      }),
  };
}

const quiet = { onError: () => undefined };

describe('createQueryRunner timeouts', () => {
  it('gives up on a read at the query timeout with a 503', async () => {
    const run = createQueryRunner(slowClient(200), 'test', { queryTimeoutMs: 20, ...quiet });
    await expect(run('find', 'SELECT 1', [])).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('waits past the query timeout for a write that then commits, and answers its rows', async () => {
    const run = createQueryRunner(slowClient(80), 'test', { queryTimeoutMs: 20, settleTimeoutMs: 1_000, ...quiet });
    await expect(run('rotate', 'UPDATE t SET x = 1 RETURNING 1 AS one', [], 'write')).resolves.toEqual([{ one: 1 }]);
  });

  it('answers 503 for a write still running after both bounds, reporting the outcome as unknown', async () => {
    const failures: string[] = [];
    const run = createQueryRunner(slowClient('never'), 'test', { queryTimeoutMs: 20, settleTimeoutMs: 30, onError: (f) => failures.push(`${f.operation}:${f.code}`) });
    await expect(run('rotate', 'UPDATE t SET x = 1', [], 'write')).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(failures).toEqual(['rotate:OUTCOME_UNKNOWN']);
  });

  it('with settleTimeoutMs 0, abandons a write at the query timeout (the old behaviour, for comparison)', async () => {
    const run = createQueryRunner(slowClient(80), 'test', { queryTimeoutMs: 20, settleTimeoutMs: 0, ...quiet });
    await expect(run('rotate', 'UPDATE t SET x = 1', [], 'write')).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('refuses a settle timeout that is not a number of milliseconds', () => {
    expect(() => createQueryRunner(slowClient(1), 'test', { settleTimeoutMs: Number.NaN })).toThrow(RangeError);
  });
});
