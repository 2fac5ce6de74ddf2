// Three processes of examples/tenants on one PostgreSQL and no Redis: revocations (API keys, ended
// sessions) travel on PostgreSQL LISTEN/NOTIFY (the engine DATABASE_URL selects), so a key or a
// session revoked through one is refused by the others within a second although each caches
// API-key records for 60 s and verified access tokens until they expire.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from './support/test-database.js';
import { request, startTenantsProcess, type TenantsProcess } from './support/tenants-process.js';
import { expectAllSessionsEndEverywhere, expectRevocationReachesAll, expectSignOutReachesAll, signIn } from './support/revocation-check.js';

describe.skipIf(TEST_DATABASE_URL === undefined)('three tenants processes, revocations over LISTEN/NOTIFY (TEST_DATABASE_URL, no Redis)', () => {
  let database: TestDatabase;
  let instances: TenantsProcess[] = [];
  let env: Record<string, string> = {};
  beforeAll(async () => {
    database = await createTestDatabase();
    env = { DATABASE_URL: database.url, AUTH_SECRET: 'revocation-bus-test-secret-0123456789abcdef', API_KEY_CACHE_SECONDS: '60' };
    instances = await Promise.all([startTenantsProcess(env), startTenantsProcess(env), startTenantsProcess(env)]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await database?.drop();
  });

  it('a session signed out through A is refused by B and C within 1 s, though they cached its access token', async () => {
    await expectSignOutReachesAll(instances);
  });

  it('signing out everywhere through C ends every earlier session on all three within 1 s; a new sign-in works', async () => {
    await expectAllSessionsEndEverywhere(instances);
  });

  it('a key revoked through A is refused by B and C within 1 s, though they cache records for 60 s', async () => {
    await expectRevocationReachesAll(instances);
  });

  it('a process started after a sign-out refuses that session: it reads the ended sessions from PostgreSQL at boot', async () => {
    const [a] = instances as [TenantsProcess];
    const pair = await signIn(a);
    expect((await request(a.url, 'POST', '/auth/sign-out', { json: { refreshToken: pair.refreshToken } })).status).toBe(204);
    const late = await startTenantsProcess(env);
    instances.push(late);
    expect((await request(late.url, 'GET', '/me', { headers: { authorization: `Bearer ${pair.accessToken}` } })).status, late.output().slice(-2_000)).toBe(401);
  }, 60_000);
});
