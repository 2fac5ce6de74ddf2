import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, createManualClock, silentLogger, type App } from '../../lib/index.js';
import { serve } from '../../lib/node.js';
import { send } from '../../test/http-helpers.js';
import { createMigratedPGlite } from '../../test/postgres/support/pglite.js';
import { readTenantsConfig } from './config.js';
import { openTenantsDatabase, readTenantsDatabaseConfig, type TenantsDatabase } from './postgres/tenants-database.js';
import { createPostgresTenantsStores } from './postgres/tenants-stores.js';
import { auth } from './claims.js';
import { createTenantsModule } from './tenants-module.js';
import { linkIn, startMailbox, type Mailbox } from '../../test/support/test-mailbox.js';

// The account system of the tenants app on its PostgreSQL stores (embedded PGlite, as
// `npm run example:tenants` runs without DATABASE_URL): accounts and mail tokens in
// tessera_accounts / tessera_account_tokens, sessions with their metadata in
// tessera_refresh_tokens, failed sign-ins counted in tessera_rate_limits.

const PASSWORD = 'a long enough passphrase';
let dataDir: string;
let mailbox: Mailbox;
let database: TenantsDatabase;
let app: App;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tessera-tenants-accounts-'));
  await (await createMigratedPGlite(dataDir)).close();
  mailbox = await startMailbox();
  database = await openTenantsDatabase(readTenantsDatabaseConfig({ TENANTS_DATA_DIR: dataDir }));
  const config = readTenantsConfig({ AUTH_SECRET: 'tenants-test-secret-0123456789abcdef', SMTP_URL: mailbox.url, APP_URL: 'https://tenants.example' }, () => undefined);
  const clock = createManualClock(Date.parse('2026-11-21T12:00:00Z'));
  app = await createApp(createTenantsModule(config, { clock, stores: (c) => createPostgresTenantsStores(database, c, config, { queryTimeoutMs: 5_000 }) }), { logger: silentLogger });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await mailbox?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const count = async (sql: string, params: unknown[] = []) => (await database.query<{ n: number }>(sql, params)).rows[0]?.n;

describe('tenants on PostgreSQL: accounts, sessions and throttling in the database', () => {
  it('signs up into tessera_accounts, keeps only the hash of the mailed token, and verifies from the link', async () => {
    expect((await send(app, 'POST', '/auth/sign-up', { json: { email: 'kim@example.test', password: PASSWORD } })).status).toBe(202);
    const { token } = linkIn(await mailbox.next('kim@example.test'));
    expect(await count("SELECT count(*)::int AS n FROM tessera_accounts WHERE identifier = 'kim@example.test' AND NOT email_verified")).toBe(1);
    const stored = await database.query<{ token_hash: string }>('SELECT token_hash FROM tessera_account_tokens', []);
    expect(stored.rows.map((r) => r.token_hash), 'the token itself is never stored').not.toContain(token);
    expect((await send(app, 'POST', '/auth/verify-email', { json: { token } })).status).toBe(204);
    expect(await count("SELECT count(*)::int AS n FROM tessera_accounts WHERE identifier = 'kim@example.test' AND email_verified")).toBe(1);
    expect((await send(app, 'POST', '/auth/sign-in', { json: { identifier: 'kim@example.test', password: PASSWORD } })).status).toBe(200);
  });

  it('lists the sessions of a browser sign-in with its user agent from tessera_refresh_tokens', async () => {
    const signedIn = await send(app, 'POST', '/auth/browser/sign-in', { json: { identifier: 'alice@acme.test', password: 'tessera-demo-password' }, headers: { 'sec-fetch-site': 'same-origin', 'user-agent': 'PgBrowser/1.0' } });
    expect(signedIn.status).toBe(200);
    const access = signedIn.headers.getSetCookie().find((c) => c.startsWith('__Host-tessera-access='))?.split(';')[0] ?? '';
    const sessions = (await send(app, 'GET', '/auth/sessions', { headers: { cookie: access } })).json as { userAgent: string; current: boolean }[];
    expect(sessions).toEqual([expect.objectContaining({ userAgent: 'PgBrowser/1.0', current: true })]);
  });

  it('sends at most 5 reset mails per address per hour, counted in tessera_rate_limits, answering the sixth request as the first', async () => {
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await send(app, 'POST', '/auth/password/forgot', { json: { email: 'carol@globex.test' } })).text);
    await app.get(auth.ACCOUNT_SERVICE).settled();
    expect(new Set(answers).size, 'one answer for all six').toBe(1);
    // The mails go out as jobs (SMTP_URL): settled() is when they are enqueued; wait for the five, then a moment for a sixth.
    for (let i = 0; i < 5; i++) await mailbox.next('carol@globex.test');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailbox.received.filter((m) => m.to.includes('carol@globex.test'))).toHaveLength(5);
    const hits = await count("SELECT hits::int AS n FROM tessera_rate_limits WHERE name = 'tenants-account-mails' AND key = $1", [createHash('sha256').update('carol@globex.test').digest('hex')]);
    expect(hits, 'the count of mails to the address (keyed by its SHA-256) lives in the database').toBe(6);
  });

  it('refuses the 11th mail request for one address with 429, counted in tessera_rate_limits beside the sign-in counts', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await send(app, 'POST', '/auth/verify-email/resend', { json: { email: 'dave@globex.test' } })).status);
    expect(statuses, 'ten within the hour, then the throttle').toEqual([...Array<number>(10).fill(202), 429]);
    expect(await count("SELECT max(hits)::int AS n FROM tessera_rate_limits WHERE name = 'account-email-3600s'"), 'the shared counter, in the database').toBe(11);
  });

  it('throttles a sixth wrong password from one address with 429 and Retry-After, counted in tessera_rate_limits', async () => {
    // Over a socket, so the sign-in has a client address (127.0.0.1) to count.
    const server = await serve(app, { port: 0, host: '127.0.0.1' });
    try {
      const attempt = () => fetch(`${server.url}/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: 'bob@acme.test', password: 'not the password' }) });
      for (let i = 0; i < 5; i++) expect((await attempt()).status, `failure ${i + 1}`).toBe(401);
      const refused = await attempt();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await count("SELECT count(*)::int AS n FROM tessera_rate_limits WHERE name LIKE 'sign-in-%'"), 'the counts live in the database').toBeGreaterThan(0);
    } finally {
      await server.close({ forceAfterMs: 200 });
    }
  });
});
