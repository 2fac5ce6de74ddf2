// Two processes of examples/tenants on one PostgreSQL database, as behind a load balancer:
// rotation, sign-out, key revocation (cacheSeconds 0), the per-key rate limit and the posts are shared.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../examples/tenants/demo-accounts.js';
import { createTestDatabase, TEST_DATABASE_URL } from './support/test-database.js';
import type { TestDatabase } from './support/test-database.js';
import { request, startTenantsProcess } from './support/tenants-process.js';
import type { TenantsProcess } from './support/tenants-process.js';


interface Pair {
  readonly accessToken: string;
  readonly refreshToken: string;
}

describe.skipIf(TEST_DATABASE_URL === undefined)('two instances of examples/tenants on one database (TEST_DATABASE_URL)', () => {
  let database: TestDatabase;
  let a: TenantsProcess;
  let b: TenantsProcess;
  beforeAll(async () => {
    database = await createTestDatabase();
    const env = {
      DATABASE_URL: database.url,
      AUTH_SECRET: 'two-instances-test-secret-0123456789abcdef',
      API_KEY_CACHE_SECONDS: '0',
      API_KEY_RATE_LIMIT: '4',
      API_KEY_RATE_WINDOW_MS: '600000',
    };
    // Started together: migrations and demo-account seeding must cope with a concurrent twin.
    [a, b] = await Promise.all([startTenantsProcess(env), startTenantsProcess(env)]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
  });

  const signIn = async (on: TenantsProcess, identifier = 'alice@acme.test'): Promise<Pair> => {
    const res = await request(on.url, 'POST', '/auth/sign-in', { json: { identifier, password: DEMO_PASSWORD } });
    expect(res.status, on.output()).toBe(200);
    return res.json as Pair;
  };
  const refresh = (on: TenantsProcess, refreshToken: string) => request(on.url, 'POST', '/auth/refresh', { json: { refreshToken } });

  it('a token refreshed on one is refused as reuse on the other (the family is revoked everywhere)', async () => {
    const pair = await signIn(a, 'bob@acme.test');
    const rotated = await refresh(a, pair.refreshToken);
    expect(rotated.status).toBe(200);
    const reuse = await refresh(b, pair.refreshToken);
    expect(reuse.status).toBe(401);
    expect((reuse.json as { detail: string }).detail).toBe('Invalid credentials');
    // Reuse, not merely "unknown": B revoked the family, so A's fresh successor is dead too.
    expect((await refresh(a, (rotated.json as Pair).refreshToken)).status).toBe(401);
  });

  it('signing out on one is seen by the other', async () => {
    const pair = await signIn(b, 'carol@globex.test');
    expect((await request(a.url, 'POST', '/auth/sign-out', { json: { refreshToken: pair.refreshToken } })).status).toBe(204);
    expect((await refresh(b, pair.refreshToken)).status).toBe(401);
  });

  it('a key created on one works on the other, and once revoked on one is refused by the other', async () => {
    const alice = { authorization: `Bearer ${(await signIn(a)).accessToken}` };
    const created = await request(a.url, 'POST', '/tenants/acme/api-keys', { headers: alice, json: { name: 'shared', scopes: ['posts:read'] } });
    expect(created.status).toBe(201);
    const { id, key } = created.json as { id: string; key: string };
    expect((await request(b.url, 'GET', '/tenants/acme/posts', { headers: { 'x-api-key': key } })).status).toBe(200);
    expect((await request(a.url, 'DELETE', `/tenants/acme/api-keys/${id}`, { headers: alice })).status).toBe(204);
    const refused = await request(b.url, 'GET', '/tenants/acme/posts', { headers: { 'x-api-key': key } });
    expect(refused.status).toBe(401);
    expect((refused.json as { detail: string }).detail).toBe('Invalid API key');
  });

  it('the per-key rate limit is one budget across both instances', async () => {
    const alice = { authorization: `Bearer ${(await signIn(b)).accessToken}` };
    const { key } = (await request(b.url, 'POST', '/tenants/acme/api-keys', { headers: alice, json: { name: 'limited', scopes: ['posts:read'] } })).json as { key: string };
    const statuses: number[] = [];
    for (const on of [a, b, a, b, a, b]) statuses.push((await request(on.url, 'GET', '/tenants/acme/posts', { headers: { 'x-api-key': key } })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const limited = await request(a.url, 'GET', '/tenants/acme/posts', { headers: { 'x-api-key': key } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(590);
  });

  it('a post written on one is read, edited and deleted on the other; concurrent creates on both get distinct ids', async () => {
    const alice = { authorization: `Bearer ${(await signIn(a)).accessToken}` };
    const created = await request(a.url, 'POST', '/tenants/acme/posts', { headers: alice, json: { title: 'Shared' } });
    expect(created.status).toBe(201);
    const { id } = created.json as { id: string };
    expect((await request(b.url, 'GET', `/tenants/acme/posts/${id}`, { headers: alice })).json).toEqual(created.json);
    expect((await request(b.url, 'PATCH', `/tenants/acme/posts/${id}`, { headers: alice, json: { body: 'edited on b' } })).status).toBe(200);
    expect((await request(a.url, 'GET', `/tenants/acme/posts/${id}`, { headers: alice })).json).toMatchObject({ body: 'edited on b' });
    expect((await request(a.url, 'DELETE', `/tenants/acme/posts/${id}`, { headers: alice })).status).toBe(204);
    expect((await request(b.url, 'GET', `/tenants/acme/posts/${id}`, { headers: alice })).status).toBe(404);

    const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => request(i % 2 === 0 ? a.url : b.url, 'POST', '/tenants/acme/posts', { headers: alice, json: { title: `burst ${i}` } })));
    expect(burst.map((r) => r.status)).toEqual(Array(10).fill(201));
    const ids = burst.map((r) => Number((r.json as { id: string }).id)).sort((x, y) => x - y);
    // The ten numbers right after the shared post's: none twice, none skipped.
    expect(ids).toEqual(Array.from({ length: 10 }, (_, i) => Number(id) + 1 + i));
  });
});
