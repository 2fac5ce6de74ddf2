// Three processes of examples/tenants sharing one PostgreSQL (TEST_DATABASE_URL) and a Redis this
// file starts itself (scripts/redis/, so that stopping it disturbs no other test; TEST_REDIS_URL
// says Redis is available here): the per-key rate limit counted in Redis holds exactly under
// concurrent load, a post created on one process reaches a live socket on another, and a Redis
// outage makes rate-limited requests fail closed (503) until Redis is back, with nothing crashing.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../postgres/support/test-database.js';
import { request, startTenantsProcess, type TenantsProcess } from '../postgres/support/tenants-process.js';
import { openSocket } from '../websocket/socket-client.js';
import { expectAllSessionsEndEverywhere, expectRevocationReachesAll, expectSignOutReachesAll, signIn } from '../postgres/support/revocation-check.js';

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;
const run = promisify(execFile);
const scripts = join(import.meta.dirname, '..', '..', 'scripts', 'redis');

describe.skipIf(TEST_DATABASE_URL === undefined || TEST_REDIS_URL === undefined)('three tenants processes on one PostgreSQL and one Redis (TEST_DATABASE_URL, TEST_REDIS_URL)', () => {
  let database: TestDatabase;
  let redisDir: string;
  let instances: TenantsProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const { stdout } = await run(join(scripts, 'start-test-server.sh'));
    redisDir = /TESSERA_REDIS_DIR=(\S+)/.exec(stdout)?.[1] as string;
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: /TEST_REDIS_URL=(\S+)/.exec(stdout)?.[1] as string,
      AUTH_SECRET: 'three-instances-test-secret-0123456789abcdef',
      API_KEY_CACHE_SECONDS: '60',
      API_KEY_RATE_LIMIT: '10',
      API_KEY_RATE_WINDOW_MS: '600000',
    };
    instances = await Promise.all([startTenantsProcess(env), startTenantsProcess(env), startTenantsProcess(env)]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    if (redisDir !== undefined) await run(join(scripts, 'stop-test-server.sh'), [redisDir]);
    await database?.drop();
  });

  const bearer = async (on: TenantsProcess) => ({ authorization: `Bearer ${(await signIn(on)).accessToken}` });
  const newKey = async (on: TenantsProcess, name: string) => {
    const created = await request(on.url, 'POST', '/tenants/acme/api-keys', { headers: await bearer(on), json: { name, scopes: ['posts:read'] } });
    expect(created.status).toBe(201);
    return (created.json as { key: string }).key;
  };

  it('a limit of 10 per window holds exactly across the three under 300 concurrent requests', async () => {
    const key = await newKey(instances[0] as TenantsProcess, 'limited');
    const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => request((instances[i % 3] as TenantsProcess).url, 'GET', '/tenants/acme/posts', { headers: { 'x-api-key': key } })));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200), 'exactly 10 accepted').toHaveLength(10);
    expect(statuses.filter((status) => status === 429), 'the rest refused').toHaveLength(290);
    expect(answers.filter((answer) => answer.status === 429).every((answer) => Number(answer.headers.get('retry-after')) > 0), 'every 429 says when to retry').toBe(true);
  }, 60_000);

  it('a session signed out through A is refused by B and C within 1 s, though they cached its access token', async () => {
    await expectSignOutReachesAll(instances);
  });

  it('signing out everywhere through C ends every earlier session on all three within 1 s; a new sign-in works', async () => {
    await expectAllSessionsEndEverywhere(instances);
  });

  it('a key revoked through A is refused by B and C within 1 s, though they cache records for 60 s', async () => {
    await expectRevocationReachesAll(instances);
  });

  it('a post created on one process reaches a live socket connected to another', async () => {
    const [a, , c] = instances as [TenantsProcess, TenantsProcess, TenantsProcess];
    const alice = await bearer(a);
    const live = await openSocket(`${c.url.replace('http://', 'ws://')}/tenants/acme/live`, { headers: alice });
    await new Promise((resolve) => setTimeout(resolve, 300)); // the subscription is confirmed by Redis
    const created = await request(a.url, 'POST', '/tenants/acme/posts', { headers: alice, json: { title: 'From A to C' } });
    expect(created.status).toBe(201);
    expect(JSON.parse(String(await live.next()))).toEqual(created.json);
    live.ws.close();
  });

  it('a post created on one process reaches an event-stream subscriber connected to another', async () => {
    const [a, , c] = instances as [TenantsProcess, TenantsProcess, TenantsProcess];
    const alice = await bearer(a);
    const controller = new AbortController();
    const events = await fetch(`${c.url}/tenants/acme/events`, { headers: alice, signal: controller.signal });
    expect(events.status).toBe(200);
    const reader = (events.body as ReadableStream<Uint8Array>).getReader();
    await new Promise((resolve) => setTimeout(resolve, 300)); // the subscription is confirmed by Redis
    const created = await request(a.url, 'POST', '/tenants/acme/posts', { headers: alice, json: { title: 'From A to C, streamed' } });
    expect(created.status).toBe(201);
    let text = '';
    while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text, 'C streamed the post created on A').toContain(`data: ${JSON.stringify(created.json)}`);
    controller.abort();
  });

  it('a socket opened on C with a session\'s token closes with 1008 within 1 s when that session signs out through A', async () => {
    const [a, , c] = instances as [TenantsProcess, TenantsProcess, TenantsProcess];
    const pair = await signIn(a);
    const live = await openSocket(`${c.url.replace('http://', 'ws://')}/tenants/acme/live`, { headers: { authorization: `Bearer ${pair.accessToken}` } });
    const since = Date.now();
    expect((await request(a.url, 'POST', '/auth/sign-out', { json: { refreshToken: pair.refreshToken } })).status).toBe(204);
    const closed = await Promise.race([live.closed, new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), 1_000))]);
    expect(closed, `C's output:\n${c.output().slice(-2_000)}`).toEqual({ code: 1008, reason: 'Session revoked' });
    expect(Date.now() - since).toBeLessThan(1_000);
  });

  it('while Redis is down: revoking a key, signing out and creating a post answer at once; A refuses the key at once, B within 1.5 s (it caches keys for 60 s)', async () => {
    const [a, b] = instances as [TenantsProcess, TenantsProcess, TenantsProcess];
    const alice = await bearer(a);
    const created = await request(a.url, 'POST', '/tenants/acme/api-keys', { headers: alice, json: { name: 'revoked in the dark', scopes: ['posts:read'] } });
    const { id, key } = created.json as { id: string; key: string };
    for (const on of [a, b]) expect((await request(on.url, 'GET', '/tenants/acme/posts', { headers: { 'x-api-key': key } })).status, 'the key works (and is cached) on A and B').toBe(200);
    const session = await signIn(a);
    await run(join(scripts, 'stop-test-server.sh'), [redisDir, '--keep']);
    try {
      const revoked = await request(a.url, 'DELETE', `/tenants/acme/api-keys/${id}`, { headers: alice });
      expect(revoked.status, 'the revocation is committed: 204, not 500').toBe(204);
      expect(revoked.ms, 'and answered without waiting on the bus').toBeLessThan(1_000);
      const since = Date.now();
      expect((await request(a.url, 'GET', '/tenants/acme/posts', { headers: { 'x-api-key': key } })).status, 'A refuses at once').toBe(401);
      let status = 0;
      while (Date.now() - since < 1_500) {
        status = (await request(b.url, 'GET', '/tenants/acme/posts', { headers: { 'x-api-key': key } })).status;
        if (status === 401) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(status, `B refuses within 1.5 s though the bus is down; B's output:\n${b.output().slice(-2_000)}`).toBe(401);
      const signedOut = await request(a.url, 'POST', '/auth/sign-out', { json: { refreshToken: session.refreshToken } });
      expect([signedOut.status, signedOut.ms < 1_000], 'sign-out answers 204 at once').toEqual([204, true]);
      const post = await request(a.url, 'POST', '/tenants/acme/posts', { headers: alice, json: { title: 'Written while Redis is down' } });
      expect([post.status, post.ms < 1_000], 'a write that publishes answers 201 at once').toEqual([201, true]);
    } finally {
      await run(join(scripts, 'start-test-server.sh'), [redisDir]);
    }
    // Every instance hears the bus and reaches Redis again before the next test.
    const deadline = Date.now() + 10_000;
    let states: unknown[] = [];
    while (Date.now() < deadline) {
      states = await Promise.all(instances.map(async (on) => (await request(on.url, 'GET', '/health/ready')).json));
      if (states.every((state) => (state as { status?: string }).status === 'ok')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(states, 'every instance reports ok again').toEqual(instances.map(() => expect.objectContaining({ status: 'ok' })));
    for (const instance of instances) expect(instance.output(), 'no ioredis noise in the log').not.toMatch(/Unhandled error event/);
  }, 60_000);

  it('while Redis is down, rate-limited requests fail closed with 503 and nothing crashes; all is normal within seconds of its return', async () => {
    const key = await newKey(instances[1] as TenantsProcess, 'outage');
    const on = (i: number) => (instances[i % 3] as TenantsProcess).url;
    expect((await request(on(0), 'GET', '/tenants/acme/posts', { headers: { 'x-api-key': key } })).status).toBe(200);
    await run(join(scripts, 'stop-test-server.sh'), [redisDir, '--keep']);
    const during = await Promise.all([0, 1, 2].map((i) => request(on(i), 'GET', '/tenants/acme/posts', { headers: { 'x-api-key': key } })));
    expect(during.map((answer) => answer.status), 'fail closed on every instance').toEqual([503, 503, 503]);
    expect(Math.max(...during.map((answer) => answer.ms)), 'in bounded time').toBeLessThan(2_000);
    const degraded = await request(on(0), 'GET', '/health/ready');
    expect([degraded.status, degraded.json], 'readiness reports Redis down, but keeps the instance in the balancer (every instance shares that Redis)').toMatchObject([200, { status: 'degraded', checks: { redis: { status: 'down' } } }]);
    await run(join(scripts, 'start-test-server.sh'), [redisDir]);
    const deadline = Date.now() + 10_000;
    let statuses: number[] = [];
    while (Date.now() < deadline) {
      statuses = (await Promise.all([0, 1, 2].map((i) => request(on(i), 'GET', '/tenants/acme/posts', { headers: { 'x-api-key': key } })))).map((answer) => answer.status);
      if (statuses.every((status) => status === 200)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(statuses, 'every instance serves again').toEqual([200, 200, 200]);
    expect((await request(on(0), 'GET', '/health/ready')).status, 'and is ready again').toBe(200);
    for (const instance of instances) expect(instance.output(), 'no process crashed').not.toMatch(/Unhandled|uncaught/i);
  }, 60_000);
});
