// What the transaction around each write costs: refresh rotations per second through
// TokenIssuingService over PostgresRefreshTokenStore, with the pool lending connections (each
// write is BEGIN, the statement, COMMIT) and with a client that only has query() (each write is
// one statement, as before), interleaved in rounds so drift hits both alike.
//
//   eval "$(scripts/postgres/start-test-server.sh)"
//   node --import ./scripts/register-swc.mjs test/postgres/support/measure-write-cost.ts
import { PostgresRefreshTokenStore } from '../../../lib/auth/postgres/index.js';
import { migrate } from '../../../lib/postgres/index.js';
import type { SqlClient } from '../../../lib/postgres/index.js';
import { chainService, uniqueId } from '../../store-contracts/contract-fixtures.js';
import { createTestDatabase, createTestPool, TEST_DATABASE_URL } from './test-database.js';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const ROUND_MS = Number(process.env.ROUND_MS ?? 2_000);

async function refreshesPerSecond(client: SqlClient, chains: number): Promise<number> {
  const subjects = Array.from({ length: chains }, () => uniqueId('bench'));
  const service = chainService(subjects, new PostgresRefreshTokenStore(client));
  let refreshes = 0;
  const started = performance.now();
  const end = started + ROUND_MS;
  await Promise.all(
    subjects.map(async (subject) => {
      let token = (await service.issueTokens(subject)).refreshToken;
      while (performance.now() < end) {
        token = (await service.refresh(token)).refreshToken;
        refreshes++;
      }
    }),
  );
  return refreshes / ((performance.now() - started) / 1_000);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

if (TEST_DATABASE_URL === undefined) throw new Error('set TEST_DATABASE_URL (scripts/postgres/start-test-server.sh)');
const database = await createTestDatabase();
const pool = createTestPool(database.url, 16);
try {
  await migrate(pool);
  const lending: SqlClient = pool;
  const queryOnly: SqlClient = { query: (text, params) => lending.query(text, params) };
  for (const chains of [1, 16]) {
    const rates = { transaction: [] as number[], statement: [] as number[] };
    await refreshesPerSecond(pool, chains); // warm-up: connections open, plans cached
    for (let round = 0; round < ROUNDS; round++) {
      rates.statement.push(await refreshesPerSecond(queryOnly, chains));
      rates.transaction.push(await refreshesPerSecond(pool, chains));
    }
    const show = (r: number[]) => `median ${median(r).toFixed(0)}/s (${Math.min(...r).toFixed(0)}-${Math.max(...r).toFixed(0)})`;
    console.log(`${chains} chain(s): one statement ${show(rates.statement)}; BEGIN+statement+COMMIT ${show(rates.transaction)}; ratio ${(median(rates.transaction) / median(rates.statement)).toFixed(2)}`);
    console.log(`  µs per refresh (find + rotate), one chain view: statement ${(1e6 / median(rates.statement) * chains).toFixed(0)}, transaction ${(1e6 / median(rates.transaction) * chains).toFixed(0)}`);
  }
} finally {
  await pool.end();
  await database.drop();
}
