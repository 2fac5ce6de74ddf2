import { expect } from 'vitest';
import { DEMO_PASSWORD } from '../../../examples/tenants/demo-accounts.js';
import { request, type TenantsProcess } from './tenants-process.js';

/**
 * The revocation checks shared by the Redis and PostgreSQL bus tests: a credential used on every
 * instance (so each has it cached: API-key records with API_KEY_CACHE_SECONDS=60, access tokens in
 * the verification cache), revoked through one, must be refused by all the others within a second.
 */

/** Polls `probe` on each instance until it answers 401; fails unless all do within 1 s of `since`. */
async function expectRefusedEverywhereWithinOneSecond(instances: readonly TenantsProcess[], since: number, what: string, probe: (on: TenantsProcess) => Promise<number>): Promise<void> {
  const refusedAfter: number[] = [];
  for (const on of instances) {
    let status = 0;
    while (Date.now() - since < 1_000) {
      status = await probe(on);
      if (status === 401) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status, `${on.url} still accepted ${what} 1 s later; its output:\n${on.output().slice(-3_000)}`).toBe(401);
    refusedAfter.push(Date.now() - since);
  }
  expect(Math.max(...refusedAfter)).toBeLessThan(1_000);
}

/**
 * Signs alice in on `on`: her token pair.
 *
 * @example
 * const { accessToken } = await signIn(instance);
 */
export async function signIn(on: TenantsProcess): Promise<{ accessToken: string; refreshToken: string }> {
  const res = await request(on.url, 'POST', '/auth/sign-in', { json: { identifier: 'alice@acme.test', password: DEMO_PASSWORD } });
  expect(res.status, on.output().slice(-2_000)).toBe(200);
  return res.json as { accessToken: string; refreshToken: string };
}

/** The status of `GET /me` with this access token on `on`. */
const me = async (on: TenantsProcess, accessToken: string) => (await request(on.url, 'GET', '/me', { headers: { authorization: `Bearer ${accessToken}` } })).status;

/**
 * An API key revoked through the first instance is refused by the others within a second.
 *
 * @example
 * await expectRevocationReachesAll([a, b, c]);
 */
export async function expectRevocationReachesAll(instances: readonly TenantsProcess[]): Promise<void> {
  const [first, ...others] = instances as [TenantsProcess, ...TenantsProcess[]];
  const alice = { authorization: `Bearer ${(await signIn(first)).accessToken}` };
  const created = await request(first.url, 'POST', '/tenants/acme/api-keys', { headers: alice, json: { name: 'to revoke', scopes: ['posts:read'] } });
  expect(created.status).toBe(201);
  const { id, key } = created.json as { id: string; key: string };
  for (const on of instances) expect((await request(on.url, 'GET', '/tenants/acme/posts', { headers: { 'x-api-key': key } })).status, 'the key works (and is cached) everywhere').toBe(200);
  expect((await request(first.url, 'DELETE', `/tenants/acme/api-keys/${id}`, { headers: alice })).status).toBe(204);
  await expectRefusedEverywhereWithinOneSecond(others, Date.now(), 'the revoked key', async (on) => (await request(on.url, 'GET', '/tenants/acme/posts', { headers: { 'x-api-key': key } })).status);
}

/**
 * A session signed out through the first instance: its access token, cached as verified on every
 * instance, is refused by the others within a second (it would verify for 15 more minutes).
 *
 * @example
 * await expectSignOutReachesAll([a, b, c]);
 */
export async function expectSignOutReachesAll(instances: readonly TenantsProcess[]): Promise<void> {
  const [first, ...others] = instances as [TenantsProcess, ...TenantsProcess[]];
  const pair = await signIn(first);
  for (const on of instances) expect(await me(on, pair.accessToken), 'the token works (and is cached) everywhere').toBe(200);
  expect((await request(first.url, 'POST', '/auth/sign-out', { json: { refreshToken: pair.refreshToken } })).status).toBe(204);
  await expectRefusedEverywhereWithinOneSecond(others, Date.now(), 'the signed-out session\u2019s access token', (on) => me(on, pair.accessToken));
}

/**
 * "Sign out everywhere" (`DELETE /auth/sessions`, revokeAllSessions) through the last instance:
 * both of alice's earlier sessions are refused by every instance within a second, and a sign-in
 * after it works everywhere.
 *
 * @example
 * await expectAllSessionsEndEverywhere([a, b, c]);
 */
export async function expectAllSessionsEndEverywhere(instances: readonly TenantsProcess[]): Promise<void> {
  const first = instances[0] as TenantsProcess;
  const last = instances[instances.length - 1] as TenantsProcess;
  const phone = await signIn(first);
  const laptop = await signIn(last);
  for (const on of instances) expect([await me(on, phone.accessToken), await me(on, laptop.accessToken)], 'both sessions work everywhere').toEqual([200, 200]);
  expect((await request(last.url, 'DELETE', '/auth/sessions', { headers: { authorization: `Bearer ${laptop.accessToken}` } })).status).toBe(204);
  const since = Date.now();
  await expectRefusedEverywhereWithinOneSecond(instances, since, 'the phone session', (on) => me(on, phone.accessToken));
  await expectRefusedEverywhereWithinOneSecond(instances, since, 'the laptop session', (on) => me(on, laptop.accessToken));
  const fresh = await signIn(first);
  for (const on of instances) expect(await me(on, fresh.accessToken), 'a session started afterwards works everywhere').toBe(200);
}
