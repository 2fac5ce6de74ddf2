// Issue 41: a 503 that PostgreSQL commits later. Refresh chains run while the whole server process
// hangs (SIGSTOP of the postmaster and every backend of a private cluster) for ~2 s, three times.
// A statement sent during a hang waits unread in the server's socket and runs when it resumes;
// the server's statement_timeout starts only then, so it cannot help. A store that answered 503
// while such a rotation went on to commit turns the client's retry of the same token into reuse,
// which revokes the family: the user is signed out. On a pool, each write is a transaction whose
// COMMIT is sent only if the statement answered in time, so a 503 means nothing was committed:
// that must hold with and without pg's client-side `query_timeout` on the pool.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHttpException } from '../../lib/index.js';
import type { RefreshTokenSuccessor } from '../../lib/auth/sessions/issuing/index.js';
import { PostgresRefreshTokenStore } from '../../lib/auth/postgres/index.js';
import { migrate, StoreUnavailableError } from '../../lib/postgres/index.js';
import type { SqlClient } from '../../lib/postgres/index.js';
import { chainService, uniqueId } from '../store-contracts/contract-fixtures.js';
import { startLocalCluster, whyNoClusterHang, whyNoLocalCluster } from './support/local-cluster.js';
import type { LocalCluster } from './support/local-cluster.js';
import { createTestPool, TEST_DATABASE_URL } from './support/test-database.js';

const QUERY_TIMEOUT_MS = 300;
const HANG_MS = 2_000;
const HANGS = 3;
/** Service between the hangs: reconnecting after a hang takes a while on a loaded 2-core machine. */
const SERVING_MS = 500;
const REFRESHES_PER_CHAIN = 2;
/** Above the query bound (the stores answer 503 at that anyway): fewer connection attempts die in a hung server's backlog, to be forked for nothing when it resumes. */
const CONNECT_TIMEOUT_MS = 1_000;

const noHang = TEST_DATABASE_URL === undefined ? undefined : (whyNoLocalCluster() ?? whyNoClusterHang());
if (noHang !== undefined) console.warn(`[skipped] PostgreSQL server hangs: ${noHang}`);

/** A PostgreSQL store that remembers the successor of every rotation it answered 503 for. */
class RecordingStore extends PostgresRefreshTokenStore {
  readonly unavailableSuccessors: string[] = [];
  override async rotate(oldTokenHash: string, next: RefreshTokenSuccessor): Promise<boolean> {
    try {
      return await super.rotate(oldTokenHash, next);
    } catch (error) {
      if (error instanceof StoreUnavailableError) this.unavailableSuccessors.push(next.tokenHash);
      throw error;
    }
  }
}

interface ChainsOutcome {
  /** Chains that got a 401 for a token they had never used successfully: signed out. */
  killed: number;
  /** 503 answers the chains retried. */
  unavailable: number;
  completed: number;
  /** Rotations answered 503 whose successor is in the table all the same: committed later. */
  committedAfter503: number;
  /** 503 rotations in all, and the failures onError saw, by code. */
  rotations503: number;
  failures: Record<string, number>;
}

/** Chains signed in and ready to refresh, so the hangs meet them mid-refresh, not mid-sign-in. */
interface SignedInChains {
  refreshThroughHangs(whileHanging: () => boolean): Promise<{ outcome: ChainsOutcome; store: RecordingStore }>;
}

/** Signs in `chains` subjects on `client`; their chains then refresh, each retrying a 503 with the same token as a client does. */
async function signIn(client: SqlClient, chains: number): Promise<SignedInChains> {
  const outcome: ChainsOutcome = { killed: 0, unavailable: 0, completed: 0, committedAfter503: 0, rotations503: 0, failures: {} };
  const store = new RecordingStore(client, {
    queryTimeoutMs: QUERY_TIMEOUT_MS,
    onError: (failure) => (outcome.failures[`${failure.operation}:${failure.code ?? '-'}`] = (outcome.failures[`${failure.operation}:${failure.code ?? '-'}`] ?? 0) + 1),
  });
  const subjects = Array.from({ length: chains }, () => uniqueId('hang'));
  const service = chainService(subjects, store);
  // A first connection can be slow on a loaded machine: signing in retries a 503 too.
  const tokens = await Promise.all(
    subjects.map(async (subject) => {
      for (;;) {
        const token = await service.issueTokens(subject).then(
          (pair) => pair.refreshToken,
          async (error: unknown) => {
            if (!(isHttpException(error) && error.status === 503)) throw error;
            await new Promise((resolve) => setTimeout(resolve, 50));
            return undefined;
          },
        );
        if (token !== undefined) return token;
      }
    }),
  );
  const refreshThroughHangs = async (whileHanging: () => boolean) => {
    await Promise.all(
      tokens.map(async (signedIn) => {
        let token = signedIn;
        // Refreshing through the hangs, then REFRESHES_PER_CHAIN times after the last one, so a
        // rotation that a resumed server committed late is met by the chain's retry.
        for (let after = 0; whileHanging() || after < REFRESHES_PER_CHAIN; ) {
          const hangsOver = !whileHanging();
          try {
            token = (await service.refresh(token)).refreshToken;
            if (hangsOver) after++;
          } catch (error) {
            if (isHttpException(error) && error.status === 503) {
              outcome.unavailable++;
              await new Promise((resolve) => setTimeout(resolve, 50));
              continue;
            }
            if (isHttpException(error) && error.status === 401) {
              outcome.killed++;
              return;
            }
            throw error;
          }
        }
        outcome.completed++;
      }),
    );
    return { outcome, store };
  };
  return { refreshThroughHangs };
}

/** Hangs the cluster HANGS times for HANG_MS, with short spells of service between. */
async function hangRepeatedly(cluster: LocalCluster, state: { hanging: boolean }): Promise<void> {
  try {
    for (let hang = 0; hang < HANGS; hang++) {
      await new Promise((resolve) => setTimeout(resolve, SERVING_MS));
      await cluster.hang();
      await new Promise((resolve) => setTimeout(resolve, HANG_MS));
      cluster.resume();
    }
  } finally {
    cluster.resume();
    state.hanging = false;
  }
}

/** How many of `hashes` are stored: rotations that committed although the store answered 503. */
async function storedCount(pool: pg.Pool, hashes: readonly string[]): Promise<number> {
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM tessera_refresh_tokens WHERE token_hash = ANY($1)', [hashes]);
  return rows[0]?.n ?? 0;
}

describe.skipIf(TEST_DATABASE_URL === undefined || noHang !== undefined)('a PostgreSQL server that hangs mid-refresh (own cluster, SIGSTOP)', () => {
  let cluster: LocalCluster;
  let checkPool: pg.Pool;
  const pools: pg.Pool[] = [];
  let plain: ChainsOutcome | undefined;
  let withQueryTimeout: ChainsOutcome | undefined;
  let control: ChainsOutcome | undefined;

  /** Bounded connecting, as in production; `query_timeout` (client-side) only where asked. */
  const pool = (withQueryTimeout: boolean) => {
    const created = createTestPool(cluster.url, 15, { connectionTimeoutMillis: CONNECT_TIMEOUT_MS, ...(withQueryTimeout ? { query_timeout: QUERY_TIMEOUT_MS } : {}) });
    pools.push(created);
    return created;
  };

  // One run of three hangs serves every it: 15 chains on a pool, 15 on a pool with pg's
  // query_timeout, and the control's 15 on a client with query() alone over a pool with
  // query_timeout (the tenants example before the fix), side by side.
  beforeAll(async () => {
    cluster = await startLocalCluster();
    checkPool = createTestPool(cluster.url, 2);
    await migrate(checkPool);
    const queryTimeoutPool = pool(true);
    const queryOnly: SqlClient = { query: (text, params) => (queryTimeoutPool as SqlClient).query(text, params) };
    [plain, withQueryTimeout, control] = await throughHangs([
      { client: pool(false), chains: 15 },
      { client: pool(true), chains: 15 },
      { client: queryOnly, chains: 15 },
    ]);
    console.log(`[hang] pool: ${JSON.stringify(plain)}`);
    console.log(`[hang] pool with query_timeout: ${JSON.stringify(withQueryTimeout)}`);
    console.log(`[hang] control, query() alone over a pool with query_timeout: ${JSON.stringify(control)}`);
  }, 60_000);
  afterAll(async () => {
    cluster?.resume();
    await Promise.all([...pools, checkPool].map((p) => p?.end()));
    await cluster?.destroy();
  });

  /** Runs `scenarios` side by side through the hangs, then counts what committed after a 503. */
  async function throughHangs(scenarios: readonly { client: SqlClient; chains: number }[]): Promise<ChainsOutcome[]> {
    const signedIn = await Promise.all(scenarios.map((s) => signIn(s.client, s.chains)));
    const state = { hanging: true };
    const hanging = hangRepeatedly(cluster, state);
    const runs = await Promise.all(signedIn.map((chains) => chains.refreshThroughHangs(() => state.hanging)));
    await hanging;
    // Anything a resumed backend still had to run has run by now: every chain refreshed since.
    return Promise.all(
      runs.map(async ({ outcome, store }) => ({
        ...outcome,
        rotations503: store.unavailableSuccessors.length,
        committedAfter503: await storedCount(checkPool, store.unavailableSuccessors),
      })),
    );
  }

  for (const [name, outcome] of [
    ['a pool', () => plain],
    ["a pool with pg's query_timeout", () => withQueryTimeout],
  ] as const) {
    it(`on ${name}, commits no rotation it answered 503 for`, () => {
      expect(outcome()?.committedAfter503, 'rotations answered 503 that committed later').toBe(0);
    });

    it(`on ${name}, signs nobody out: every chain refreshes again after the hangs`, () => {
      expect(outcome()?.killed, 'chains signed out').toBe(0);
      expect(outcome()?.completed, 'chains that finished').toBe(15);
    });

    it(`on ${name}, really hung, and writes were not held through it: rotations were answered 503`, () => {
      expect(outcome()?.rotations503, 'rotations answered 503 during the hangs').toBeGreaterThan(0);
    });
  }

  it('control: on a client with query() alone over a pool with query_timeout, rotations answered 503 commit later and sign users out', () => {
    expect(control?.committedAfter503, 'rotations answered 503 that committed later: the bug this guards against').toBeGreaterThan(0);
    expect(control?.killed, 'chains signed out by a late commit').toBeGreaterThan(0);
  });
});
