// The database stops while examples/tenants is serving, then comes back. The test owns its
// cluster (scripts/postgres/start-test-server.sh) so it can stop it with pg_ctl. While it is
// down: API-key requests 503 (never 200, never 401); sign-in and refresh 503 problem+json within
// a bounded time; tokens still work; readiness 503 with its database check down. Once it is
// back: everything serves again and readiness is 200, no restart. The its run in order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../examples/tenants/demo-accounts.js';
import { startLocalCluster, whyNoLocalCluster } from './support/local-cluster.js';
import type { LocalCluster } from './support/local-cluster.js';
import { TEST_DATABASE_URL } from './support/test-database.js';
import { request, startTenantsProcess } from './support/tenants-process.js';
import type { HttpAnswer, TenantsProcess } from './support/tenants-process.js';

const noCluster = TEST_DATABASE_URL === undefined ? undefined : whyNoLocalCluster();
if (noCluster !== undefined) console.warn(`[skipped] database outage with examples/tenants: ${noCluster}`);

/** Retries until `ok` or the deadline: the first requests after a restart may still find the server starting. */
async function eventually(call: () => Promise<HttpAnswer>, ok: (a: HttpAnswer) => boolean, ms = 15_000): Promise<HttpAnswer> {
  const deadline = Date.now() + ms;
  for (;;) {
    const answer = await call();
    if (ok(answer) || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf(TEST_DATABASE_URL === undefined || noCluster !== undefined)('database outage while serving (TEST_DATABASE_URL, own cluster)', () => {
  let cluster: LocalCluster;
  let app: TenantsProcess;
  beforeAll(async () => {
    cluster = await startLocalCluster();
    app = await startTenantsProcess({ DATABASE_URL: cluster.url, AUTH_SECRET: 'outage-test-secret-0123456789abcdef', DATABASE_QUERY_TIMEOUT_MS: '2000' });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await cluster?.destroy();
  });

  let pair: { accessToken: string; refreshToken: string };
  let key: string;
  const signIn = () => request(app.url, 'POST', '/auth/sign-in', { json: { identifier: 'alice@acme.test', password: DEMO_PASSWORD } });
  const readWithKey = () => request(app.url, 'GET', '/tenants/acme/posts', { headers: { 'x-api-key': key } });
  const readiness = () => request(app.url, 'GET', '/health/ready');

  it('serves API keys and reports ready, its database up, while the database runs', async () => {
    pair = (await signIn()).json as typeof pair;
    key = ((await request(app.url, 'POST', '/tenants/acme/api-keys', { headers: { authorization: `Bearer ${pair.accessToken}` }, json: { name: 'ci', scopes: ['posts:read'] } })).json as { key: string }).key;
    expect((await readWithKey()).status).toBe(200);
    const ready = await readiness();
    expect(ready.status, `readiness with the database up: ${ready.text}`).toBe(200);
    expect(ready.json).toMatchObject({ status: 'ok', checks: { database: { status: 'up' } } });
  });

  it('answers 503 problem+json for keys, sign-in and refresh while the database is down, within a bounded time', async () => {
    await cluster.stop();
    const down = {
      apiKey: await readWithKey(),
      signIn: await signIn(),
      refresh: await request(app.url, 'POST', '/auth/refresh', { json: { refreshToken: pair.refreshToken } }),
      apiKeyAgain: await readWithKey(),
    };
    console.info(`[outage, real server] ms while down: ${Object.entries(down).map(([n, a]) => `${n} ${a.status} in ${a.ms.toFixed(0)}`).join(', ')}`);
    for (const [name, answer] of Object.entries(down)) {
      expect([name, answer.status, answer.headers.get('content-type')]).toEqual([name, 503, 'application/problem+json']);
      expect(answer.ms).toBeLessThan(5_000);
      expect(answer.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres:/);
    }
  });

  it('keeps token routes working through the outage (a bearer token needs no store)', async () => {
    expect((await request(app.url, 'GET', '/me', { headers: { authorization: `Bearer ${pair.accessToken}` } })).status).toBe(200);
  });

  it('reports degraded (200, database down) while the database is down, without saying why in public: a shared database lost by every instance must not empty the balancer', async () => {
    const ready = await readiness();
    expect(ready.status, `readiness with the database stopped: ${ready.text}`).toBe(200);
    expect(ready.json).toMatchObject({ status: 'degraded', checks: { database: { status: 'down' } } });
    expect(ready.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres:/);
  });

  it('serves again and reports ready once the database is back, with no restart', async () => {
    await cluster.start();
    const started = performance.now();
    expect((await eventually(readWithKey, (a) => a.status === 200)).status).toBe(200);
    console.info(`[outage, real server] serving API keys again ${(performance.now() - started).toFixed(0)} ms after the database restarted`);
    expect((await request(app.url, 'POST', '/auth/refresh', { json: { refreshToken: pair.refreshToken } })).status).toBe(200);
    expect((await signIn()).status).toBe(200);
    expect((await eventually(readiness, (a) => a.status === 200)).status, 'readiness after the restart').toBe(200);
  });
});
