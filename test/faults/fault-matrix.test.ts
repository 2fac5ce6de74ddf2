// The fault matrix (issue 41): two examples/tenants processes (A, B) on a PostgreSQL cluster and
// a Redis this file starts itself (so stopping or stalling them disturbs no other test), a steady
// load on both (every 50 ms, alternately on A and B: a write with an Idempotency-Key and a token,
// a read with an API key; a live socket on B counting pushes), and one fault per `it`: Redis
// stopped then started, Redis stalled (SIGSTOP, SIGCONT), PostgreSQL stopped then started. Each
// measures the longest answer during the fault, the answers by status, the writes against the
// database (a 201 stored exactly once, a 5xx not at all), a key revoked through A during the
// fault (refused by A at once, by B within 1.5 s where the bus or the store allows, its socket on
// B closed with 1008), what readiness said, and the time until everything works again on both.
// Each prints its markdown row (run with --silent=false to see them).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalCluster, whyNoLocalCluster, type LocalCluster } from '../postgres/support/local-cluster.js';
import { signIn } from '../postgres/support/revocation-check.js';
import { TEST_DATABASE_URL } from '../postgres/support/test-database.js';
import { request, startTenantsProcess, type TenantsProcess } from '../postgres/support/tenants-process.js';
import { openSocket, type SocketRecord } from '../websocket/socket-client.js';
import { runFaultScenario, type Fault, type ScenarioResult, type ScenarioSetup } from './support/fault-scenario.js';
import { FAULT_TABLE_HEADER, faultRow } from './support/fault-row.js';
import { startOwnRedis, type OwnRedis } from './support/own-redis.js';
import { followPushes, type PushLog } from './support/push-log.js';
import type { LoadAnswer, LoadTarget } from './support/steady-load.js';

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const noCluster = TEST_DATABASE_URL === undefined ? undefined : whyNoLocalCluster();
if (noCluster !== undefined) console.warn(`[skipped] fault matrix: ${noCluster}`);

/** Every load answer, whatever the fault, ms. */
const ANY_ANSWER_MS = 2_500;
/** A write that publishes while Redis is away: the bus holds it at most 250 ms. */
const PUBLISHING_WRITE_MS = 1_000;
/** From the fault's end until every probe succeeds on both instances, ms. */
const RECOVERY_MS = 10_000;

describe.skipIf(TEST_DATABASE_URL === undefined || TEST_REDIS_URL === undefined || noCluster !== undefined)('fault matrix: two tenants processes under a steady load (TEST_DATABASE_URL, TEST_REDIS_URL; own servers)', () => {
  let redis: OwnRedis;
  let cluster: LocalCluster;
  let a: TenantsProcess;
  let b: TenantsProcess;
  let loadSocket: SocketRecord;
  let setup: ScenarioSetup;
  const rows: string[] = [];

  beforeAll(async () => {
    [redis, cluster] = await Promise.all([startOwnRedis(), startLocalCluster()]);
    const env = {
      DATABASE_URL: cluster.url,
      REDIS_URL: redis.url,
      AUTH_SECRET: 'fault-matrix-test-secret-0123456789abcdef',
      API_KEY_CACHE_SECONDS: '60',
      // The load's reads must never meet the limit: only faults may refuse them.
      API_KEY_RATE_LIMIT: '1000000',
      API_KEY_RATE_WINDOW_MS: '60000',
    };
    [a, b] = await Promise.all([startTenantsProcess(env), startTenantsProcess(env)]);
    const bearer = { authorization: `Bearer ${(await signIn(a)).accessToken}` };
    const readKey = await request(a.url, 'POST', '/tenants/acme/api-keys', { headers: bearer, json: { name: 'steady load', scopes: ['posts:read'] } });
    expect(readKey.status, readKey.text).toBe(201);
    const seed = await request(a.url, 'POST', '/tenants/acme/posts', { headers: bearer, json: { title: 'read by the steady load' } });
    expect(seed.status, seed.text).toBe(201);
    const target: LoadTarget = { a, b, bearer, readKey: (readKey.json as { key: string }).key, readPath: `/tenants/acme/posts/${(seed.json as { id: string }).id}` };

    loadSocket = await openSocket(`${b.url.replace('http://', 'ws://')}/tenants/acme/live`, { headers: bearer });
    const pushes: PushLog = followPushes(loadSocket);
    // The socket's topic is subscribed in Redis once a post written on A reaches it.
    for (let attempt = 0; ; attempt++) {
      const title = `subscribed? ${attempt}`;
      expect((await request(a.url, 'POST', '/tenants/acme/posts', { headers: bearer, json: { title } })).status).toBe(201);
      if (await pushes.waitFor([title], 300)) break;
      expect(attempt, 'the live socket on B hears posts written on A').toBeLessThan(20);
    }

    const countStored = async (prefix: string) => {
      const client = new pg.Client({ connectionString: cluster.url });
      await client.connect();
      try {
        const { rows: counted } = await client.query<{ title: string; n: number }>("SELECT title, count(*)::int AS n FROM tenant_posts WHERE tenant_id = 'acme' AND starts_with(title, $1) GROUP BY title", [prefix]);
        return new Map(counted.map((row) => [row.title, row.n]));
      } finally {
        await client.end();
      }
    };
    setup = { target, pushes, countStored, recoverWithinMs: 15_000 };
  }, 120_000);

  afterAll(async () => {
    if (rows.length > 0) console.info(`[fault matrix]\n${FAULT_TABLE_HEADER}\n${rows.join('\n')}`);
    loadSocket?.ws.terminate();
    await Promise.all([a?.stop(), b?.stop()]);
    await Promise.all([redis?.destroy(), cluster?.destroy()]);
  }, 60_000);

  /** `write on A 503 in 505 ms (fault-redis-stopped-…-12)`: one answer, short enough for a failure message. */
  const brief = (answer: LoadAnswer) => `${answer.kind} on ${answer.on} ${answer.status} in ${Math.round(answer.ms)} ms${answer.title === undefined ? '' : ` (${answer.title})`}`;

  /** What every fault must keep, whatever the engine. */
  function expectCommonGuarantees(result: ScenarioResult, readinessDown: string): void {
    const slowest = [...result.answers].sort((x, y) => y.ms - x.ms)[0];
    expect(slowest?.ms ?? 0, `every load answer within ${ANY_ANSWER_MS} ms; the slowest: ${slowest === undefined ? 'none' : brief(slowest)}`).toBeLessThan(ANY_ANSWER_MS);
    expect(result.answers.filter((answer) => answer.status === 0).map(brief), 'every load request was answered').toEqual([]);
    const lost = result.writes.filter(({ answer, stored }) => answer.status === 201 && stored !== 1);
    expect(lost.map(({ answer, stored }) => `${answer.title}: ${stored} rows`), 'every write answered 201 is stored exactly once').toEqual([]);
    const ghost = result.writes.filter(({ answer, stored }) => answer.status >= 500 && stored > 0);
    expect(ghost.map(({ answer }) => `${answer.title} answered ${answer.status}`), 'no write answered 5xx is stored (a 5xx means nothing changed)').toEqual([]);
    expect(result.recovery.ms, `every probe succeeds on both instances within ${RECOVERY_MS} ms of the fault's end; the last failed round: ${result.recovery.lastFailure}`).toBeLessThan(RECOVERY_MS);
    expect(result.loadSocketOpen, 'the load\u2019s live socket on B stays open through the fault').toBe(true);
    expect(result.finalRefusal, 'the revoked key is refused on both instances after the fault').toEqual({ a: 401, b: 401 });
    const committed = result.retried?.revocation ?? result.revocation;
    expect(committed.onA, 'A refuses the key it revoked at once').toBe(401);
    expect(result.victimSocket, 'the revoked key\u2019s socket on B closes with 1008 within 3 s of the revocation').toMatchObject({ code: 1008 });
    expect(result.victimSocket !== 'open' && result.victimSocket.afterMs >= 0, 'and not before the revocation was sent').toBe(true);
    const readiness = [...result.readiness.keys()];
    expect(readiness.filter((what) => !what.startsWith('200 ')), 'readiness stays 200 during the fault: a shared engine lost by every instance must not empty the balancer').toEqual([]);
    expect(readiness.some((what) => what.startsWith('200 degraded') && what.includes(readinessDown)), `readiness reports degraded with ${readinessDown} down during the fault; it said ${readiness.join('; ')}`).toBe(true);
  }

  function expectBusFaultGuarantees(result: ScenarioResult): void {
    const writes = result.duringFault.filter((answer) => answer.kind === 'write');
    const slowest = [...writes].sort((x, y) => y.ms - x.ms)[0];
    expect(slowest?.ms ?? 0, `writes that publish answer within ${PUBLISHING_WRITE_MS} ms while Redis is away; the slowest: ${slowest === undefined ? 'none' : brief(slowest)}`).toBeLessThan(PUBLISHING_WRITE_MS);
    expect([result.revocation.status, result.revocation.ms < PUBLISHING_WRITE_MS], 'the revocation is committed and answered without waiting on the bus').toEqual([204, true]);
    expect(result.revocation.bRefusedAfterMs, 'B refuses the key within 1.5 s though it cannot hear the bus (it reads keys from the store)').toBeLessThan(1_500);
    // Found by this matrix: the tenants example keeps the creates' Idempotency-Key
    // answers in Redis when given REDIS_URL, and the idempotent() interceptor fails closed when
    // its store cannot answer, so every keyed write answers 503 while Redis is away although the
    // posts live in PostgreSQL. Kept as a failure on purpose (last, so every other check has run): see the report of issue 41.
    const refused = writes.filter((answer) => answer.status !== 201);
    expect(refused.length === 0 ? [] : [`${refused.length} of ${writes.length}`, ...refused.slice(0, 3).map(brief)], 'DEFECT while it fails: with PostgreSQL up, every write during a Redis fault is created (a write needs Redis only if its Idempotency-Key answers are kept there)').toEqual([]);
  }

  const record = (name: string, result: ScenarioResult) => {
    const row = faultRow(name, result);
    rows.push(row);
    console.info(`[fault matrix]\n${FAULT_TABLE_HEADER}\n${row}`);
  };

  it('Redis stopped, then started', async () => {
    const fault: Fault = { slug: 'redis-stopped', begin: () => redis.stop(), end: () => redis.start() };
    const result = await runFaultScenario(fault, setup);
    record('Redis stopped 4 s, then started', result);
    expectCommonGuarantees(result, 'redis');
    expectBusFaultGuarantees(result);
  }, 60_000);

  it('Redis stalled (SIGSTOP, then SIGCONT)', async () => {
    // The revocation waits 2 s into the stall: a stalled server keeps its connections open, so an
    // instance learns it cannot hear the bus only from an unanswered heartbeat (1 s + 1 s).
    const fault: Fault = { slug: 'redis-stalled', begin: () => redis.stall(), end: async () => redis.resume() };
    const result = await runFaultScenario(fault, { ...setup, revokeAfterMs: 2_000 });
    record('Redis stalled 4 s (SIGSTOP, SIGCONT)', result);
    expectCommonGuarantees(result, 'redis');
    expectBusFaultGuarantees(result);
  }, 60_000);

  it('PostgreSQL stopped, then started', async () => {
    const fault: Fault = { slug: 'postgres-stopped', begin: () => cluster.stop(), end: () => cluster.start() };
    const result = await runFaultScenario(fault, setup);
    record('PostgreSQL stopped 4 s (pg_ctl -m fast), then started', result);
    expectCommonGuarantees(result, 'database');
    // With the store away the revocation cannot be committed: its 503 must have changed nothing
    // (the key still works once the database is back), and made again it reaches B over the bus.
    expect(result.revocation.status, 'revoking with the database down answers 503').toBe(503);
    expect(result.retried?.keyBefore, 'the 503 revoked nothing: the key still works after recovery').toBe(200);
    expect(result.retried?.revocation.status, 'revoked again once the database is back').toBe(204);
    expect(result.retried?.revocation.bRefusedAfterMs, 'B refuses it within 1.5 s (the bus is up)').toBeLessThan(1_500);
  }, 60_000);
});
