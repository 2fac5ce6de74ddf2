import { expect } from 'vitest';
import { request, type TenantsProcess } from './tenants-process.js';

/**
 * The revocation check shared by the Redis and PostgreSQL bus tests: a key created and used on
 * every instance (so each has its record cached, with API_KEY_CACHE_SECONDS=60), revoked through
 * the first, must be refused by all the others within a second.
 *
 * @example
 * await expectRevocationReachesAll([a, b, c], bearer);
 */
export async function expectRevocationReachesAll(instances: readonly TenantsProcess[], bearer: (on: TenantsProcess) => Promise<Record<string, string>>): Promise<void> {
  const [first, ...others] = instances as [TenantsProcess, ...TenantsProcess[]];
  const alice = await bearer(first);
  const created = await request(first.url, 'POST', '/tenants/acme/api-keys', { headers: alice, json: { name: 'to revoke', scopes: ['posts:read'] } });
  expect(created.status).toBe(201);
  const { id, key } = created.json as { id: string; key: string };
  for (const on of instances) expect((await request(on.url, 'GET', '/tenants/acme/posts', { headers: { 'x-api-key': key } })).status, 'the key works (and is cached) everywhere').toBe(200);
  expect((await request(first.url, 'DELETE', `/tenants/acme/api-keys/${id}`, { headers: alice })).status).toBe(204);
  const revokedAt = Date.now();
  const refusedAfter: number[] = [];
  for (const on of others) {
    let status = 0;
    while (Date.now() - revokedAt < 1_000) {
      status = (await request(on.url, 'GET', '/tenants/acme/posts', { headers: { 'x-api-key': key } })).status;
      if (status === 401) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status, `${on.url} still accepted the revoked key 1 s later; its output:\n${on.output().slice(-3_000)}`).toBe(401);
    refusedAfter.push(Date.now() - revokedAt);
  }
  expect(Math.max(...refusedAfter)).toBeLessThan(1_000);
}
