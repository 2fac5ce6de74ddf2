// The tenants app's creates take Idempotency-Key: a retried create is answered from the first,
// in memory and on its PostgreSQL stores (PGlite here: two app instances on one database).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, createManualClock, type App } from '../../lib/index.js';
import { send } from '../../test/http-helpers.js';
import { createMigratedPGlite } from '../../test/postgres/support/pglite.js';
import type { PGlite } from '@electric-sql/pglite';
import { readTenantsConfig } from './config.js';
import { DEMO_PASSWORD } from './demo-accounts.js';
import { createPostgresTenantsStores } from './postgres/tenants-stores.js';
import { migrateTenantPosts } from './postgres/tenant-posts-schema.js';
import { createTenantsModule, type TenantsModuleOptions } from './tenants-module.js';

const T0 = Date.parse('2026-11-21T12:00:00Z');
const config = readTenantsConfig({ AUTH_SECRET: 'tenants-test-secret-0123456789abcdef' }, () => undefined);

async function bearer(app: App, identifier: string): Promise<Record<string, string>> {
  const res = await send(app, 'POST', '/auth/sign-in', { json: { identifier, password: DEMO_PASSWORD } });
  return { authorization: `Bearer ${(res.json as { accessToken: string }).accessToken}` };
}

async function boot(options: TenantsModuleOptions = {}) {
  const app = await createApp(createTenantsModule(config, { clock: createManualClock(T0), ...options }));
  return { app, alice: await bearer(app, 'alice@acme.test'), bob: await bearer(app, 'bob@acme.test') };
}

const key = (value: string) => ({ 'idempotency-key': `"${value}"` });

describe('tenants: Idempotency-Key on the creates (in memory)', () => {
  it('answers a retried post create from the first: one post, the same answer, marked as a replay', async () => {
    const { app, alice } = await boot();
    const first = await send(app, 'POST', '/tenants/acme/posts', { headers: { ...alice, ...key('post-1') }, json: { title: 'Hello' } });
    const retry = await send(app, 'POST', '/tenants/acme/posts', { headers: { ...alice, ...key('post-1') }, json: { title: 'Hello' } });
    expect(first.status).toBe(201);
    expect([retry.status, retry.json, retry.headers.get('idempotent-replayed')]).toEqual([201, first.json, 'true']);
    const list = (await send(app, 'GET', '/tenants/acme/posts', { headers: alice })).json as unknown[];
    expect(list, 'one post, not two').toHaveLength(1);
  });

  it('answers a retried API-key create with the same key, secret included, and makes one key', async () => {
    const { app, alice } = await boot();
    const body = { name: 'ci', scopes: ['posts:read'] };
    const first = await send(app, 'POST', '/tenants/acme/api-keys', { headers: { ...alice, ...key('api-key-1') }, json: body });
    const retry = await send(app, 'POST', '/tenants/acme/api-keys', { headers: { ...alice, ...key('api-key-1') }, json: body });
    expect([retry.status, retry.json, retry.headers.get('idempotent-replayed')]).toEqual([201, first.json, 'true']);
    expect(((await send(app, 'GET', '/tenants/acme/api-keys', { headers: alice })).json as unknown[]).length, 'one key').toBe(1);
  });

  it('keeps callers apart: the same key from another member creates another post', async () => {
    const { app, alice, bob } = await boot();
    await send(app, 'POST', '/tenants/acme/posts', { headers: { ...alice, ...key('same') }, json: { title: 'Hello' } });
    const bobs = await send(app, 'POST', '/tenants/acme/posts', { headers: { ...bob, ...key('same') }, json: { title: 'Hello' } });
    expect([bobs.status, bobs.headers.get('idempotent-replayed')]).toEqual([201, null]);
  });

  it('answers 422 to the key reused with another body', async () => {
    const { app, alice } = await boot();
    await send(app, 'POST', '/tenants/acme/posts', { headers: { ...alice, ...key('post-1') }, json: { title: 'Hello' } });
    const reused = await send(app, 'POST', '/tenants/acme/posts', { headers: { ...alice, ...key('post-1') }, json: { title: 'Other' } });
    expect([reused.status, reused.headers.get('content-type')]).toEqual([422, 'application/problem+json']);
  });

  it('documents the creates’ idempotency answers in OpenAPI', async () => {
    const { app } = await boot();
    const { serveTenantsOpenApi } = await import('./openapi.js');
    serveTenantsOpenApi(app);
    const document = (await send(app, 'GET', '/openapi.json')).json as { paths: Record<string, Record<string, { description?: string; responses: Record<string, unknown> }>> };
    for (const path of ['/tenants/{tenantId}/posts', '/tenants/{tenantId}/api-keys']) {
      const create = document.paths[path]?.post;
      expect([Object.keys(create?.responses ?? {}).filter((status) => status === '409' || status === '422'), create?.description], path).toEqual([['409', '422'], expect.stringContaining('Idempotency-Key')]);
    }
  });
});

describe('tenants: Idempotency-Key on the PostgreSQL stores (PGlite, two instances)', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await createMigratedPGlite();
    await migrateTenantPosts(db);
  }, 30_000);
  afterAll(async () => {
    await db?.close();
  });

  it('answers the retry that reaches the second instance from the first instance’s create', async () => {
    const stores: TenantsModuleOptions['stores'] = (clock) => createPostgresTenantsStores(db, clock, config);
    const [a, b] = [await boot({ stores }), await boot({ stores })];
    const first = await send(a.app, 'POST', '/tenants/acme/posts', { headers: { ...a.alice, ...key('pg-post-1') }, json: { title: 'Hello' } });
    const retry = await send(b.app, 'POST', '/tenants/acme/posts', { headers: { ...b.alice, ...key('pg-post-1') }, json: { title: 'Hello' } });
    expect([retry.status, retry.json, retry.headers.get('idempotent-replayed')]).toEqual([201, first.json, 'true']);
    const list = (await send(b.app, 'GET', '/tenants/acme/posts', { headers: b.alice })).json as unknown[];
    expect(list, 'one post in the database').toHaveLength(1);
  });
});
