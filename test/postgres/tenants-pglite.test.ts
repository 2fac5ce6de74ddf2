// examples/tenants on its embedded PGlite database (what `npm run example:tenants` uses without
// DATABASE_URL): data, posts included, survives a restart of the app, and the demo accounts are
// seeded once.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../lib/index.js';
import type { App } from '../../lib/index.js';
import { readTenantsConfig } from '../../examples/tenants/config.js';
import { DEMO_PASSWORD } from '../../examples/tenants/demo-accounts.js';
import { openTenantsDatabase, readTenantsDatabaseConfig } from '../../examples/tenants/postgres/tenants-database.js';
import type { TenantsDatabase } from '../../examples/tenants/postgres/tenants-database.js';
import { createPostgresTenantsStores } from '../../examples/tenants/postgres/tenants-stores.js';
import { createTenantsModule } from '../../examples/tenants/tenants-module.js';
import { send } from '../http-helpers.js';
import { createMigratedPGlite } from './support/pglite.js';

const ENV = { AUTH_SECRET: 'tenants-test-secret-0123456789abcdef', API_KEY_RATE_LIMIT: '3', API_KEY_RATE_WINDOW_MS: '600000' };

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tessera-tenants-'));
  // Start the directory from the shared migrated dump: PGlite's own initdb is the slow part.
  await (await createMigratedPGlite(dataDir)).close();
}, 60_000);
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

async function boot(): Promise<{ app: App; database: TenantsDatabase }> {
  const database = await openTenantsDatabase(readTenantsDatabaseConfig({ TENANTS_DATA_DIR: dataDir }));
  const config = readTenantsConfig(ENV, () => undefined);
  const app = await createApp(createTenantsModule(config, { stores: (clock) => createPostgresTenantsStores(database, clock, config, { queryTimeoutMs: database.queryTimeoutMs }) }));
  return { app, database };
}

describe('examples/tenants on embedded PGlite (TENANTS_DATA_DIR)', () => {
  it('keeps accounts, sessions, keys and rate-limit windows across a restart, seeding the demo accounts once', async () => {
    const first = await boot();
    const signIn = (app: App) => send(app, 'POST', '/auth/sign-in', { json: { identifier: 'alice@acme.test', password: DEMO_PASSWORD } });
    const pair = (await signIn(first.app)).json as { accessToken: string; refreshToken: string };
    const bearer = { authorization: `Bearer ${pair.accessToken}` };
    const created = await send(first.app, 'POST', '/tenants/acme/api-keys', { headers: bearer, json: { name: 'ci', scopes: ['posts:read'] } });
    expect(created.status).toBe(201);
    const { id, key } = created.json as { id: string; key: string };
    const readWithKey = (app: App) => send(app, 'GET', '/tenants/acme/posts', { headers: { 'x-api-key': key } });
    expect((await readWithKey(first.app)).status).toBe(200);
    const rotated = (await send(first.app, 'POST', '/auth/refresh', { json: { refreshToken: pair.refreshToken } })).json as { refreshToken: string };
    await first.app.close();

    const second = await boot();
    try {
      const { rows } = await second.database.query<{ n: number }>('SELECT count(*)::int AS n FROM tessera_accounts', []);
      expect(rows[0]?.n).toBe(3);
      expect((await signIn(second.app)).status).toBe(200);
      // The key, its last use and its rate-limit window (1 of 3 used) survived.
      const list = (await send(second.app, 'GET', '/tenants/acme/api-keys', { headers: bearer })).json as { id: string; lastUsedAt: string | null }[];
      expect(list.find((k) => k.id === id)?.lastUsedAt).not.toBeNull();
      expect((await readWithKey(second.app)).status).toBe(200);
      expect((await readWithKey(second.app)).status).toBe(200);
      expect((await readWithKey(second.app)).status).toBe(429);
      // The rotated token is still known as rotated: its replay is reuse; the successor then dies with its family.
      expect((await send(second.app, 'POST', '/auth/refresh', { json: { refreshToken: pair.refreshToken } })).status).toBe(401);
      expect((await send(second.app, 'POST', '/auth/refresh', { json: { refreshToken: rotated.refreshToken } })).status).toBe(401);
    } finally {
      await second.app.close();
    }
  }, 60_000);

  it('keeps the posts across a restart, and the next id continues the per-tenant counter', async () => {
    const signIn = async (app: App, identifier: string) => {
      const { accessToken } = (await send(app, 'POST', '/auth/sign-in', { json: { identifier, password: DEMO_PASSWORD } })).json as { accessToken: string };
      return { authorization: `Bearer ${accessToken}` };
    };
    const first = await boot();
    const [alice, carol] = [await signIn(first.app, 'alice@acme.test'), await signIn(first.app, 'carol@globex.test')];
    const create = (app: App, tenant: string, headers: Record<string, string>, title: string) => send(app, 'POST', `/tenants/${tenant}/posts`, { headers, json: { title } });
    // The first test of this file creates no posts, so acme's counter starts here.
    expect((await create(first.app, 'acme', alice, 'One')).json).toMatchObject({ id: '1' });
    expect((await create(first.app, 'acme', alice, 'Two')).json).toMatchObject({ id: '2', title: 'Two', body: '' });
    expect((await create(first.app, 'globex', carol, 'Globex only')).json).toMatchObject({ id: '1' });
    expect((await send(first.app, 'PATCH', '/tenants/acme/posts/2', { headers: alice, json: { body: 'edited' } })).status).toBe(200);
    expect((await send(first.app, 'DELETE', '/tenants/acme/posts/1', { headers: alice })).status).toBe(204);
    const before = (await send(first.app, 'GET', '/tenants/acme/posts', { headers: alice })).json;
    await first.app.close();

    const second = await boot();
    try {
      const aliceAgain = await signIn(second.app, 'alice@acme.test');
      expect((await send(second.app, 'GET', '/tenants/acme/posts', { headers: aliceAgain })).json).toEqual(before);
      expect((await send(second.app, 'GET', '/tenants/acme/posts/2', { headers: aliceAgain })).json).toMatchObject({ title: 'Two', body: 'edited' });
      expect((await send(second.app, 'GET', '/tenants/acme/posts/1', { headers: aliceAgain })).status).toBe(404);
      // The deleted id is not handed out again: the counter, not the rows, decides the next id.
      expect((await create(second.app, 'acme', aliceAgain, 'Three')).json).toMatchObject({ id: '3', title: 'Three' });
      const carolAgain = await signIn(second.app, 'carol@globex.test');
      expect((await send(second.app, 'GET', '/tenants/globex/posts', { headers: carolAgain })).json).toEqual([expect.objectContaining({ id: '1', title: 'Globex only' })]);
    } finally {
      await second.app.close();
    }
  }, 60_000);
});
