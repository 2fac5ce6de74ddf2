// Second factors of examples/tenants on a real PostgreSQL server, with a pool of 20 connections
// so concurrent requests really race in the server: one recovery code, or one TOTP code, sent 20
// times at once signs in exactly once.
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { createApp, createManualClock, silentLogger, type App } from '../../lib/index.js';
import { PostgresSecondFactorStore } from '../../lib/auth/postgres/index.js';
import { send } from '../http-helpers.js';
import { readTenantsConfig } from '../../examples/tenants/config.js';
import { DEMO_PASSWORD } from '../../examples/tenants/demo-accounts.js';
import { createPostgresTenantsStores } from '../../examples/tenants/postgres/tenants-stores.js';
import { createTenantsModule } from '../../examples/tenants/tenants-module.js';
import { TEST_DATABASE_URL, useMigratedTestDatabase } from './support/test-database.js';

interface Pair { accessToken: string; refreshToken: string }
const RACERS = 20;

describe.skipIf(TEST_DATABASE_URL === undefined)('second factors on PostgreSQL (TEST_DATABASE_URL)', () => {
  const db = useMigratedTestDatabase(RACERS + 4);
  const clock = createManualClock(Date.parse('2026-11-28T12:00:00Z'));
  let app: App;

  beforeAll(async () => {
    const config = readTenantsConfig({ AUTH_SECRET: 'second-factors-pg-secret-0123456789abcdef' }, () => undefined);
    app = await createApp(createTenantsModule(config, { clock, stores: (c) => createPostgresTenantsStores(db.pool, c, config, { queryTimeoutMs: 10_000 }) }), { logger: silentLogger });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  const pending = async (identifier: string): Promise<string> => {
    const res = await send(app, 'POST', '/auth/sign-in', { json: { identifier, password: DEMO_PASSWORD } });
    expect(res.status, `the second step for ${identifier}`).toBe(401);
    return (res.json as { pendingToken: string }).pendingToken;
  };

  async function enable(identifier: string): Promise<{ secret: string; recoveryCodes: string[] }> {
    const pair = (await send(app, 'POST', '/auth/sign-in', { json: { identifier, password: DEMO_PASSWORD } })).json as Pair;
    const headers = { authorization: `Bearer ${pair.accessToken}` };
    const { secret } = (await send(app, 'POST', '/auth/factors/totp', { headers, json: {} })).json as { secret: string };
    const confirm = await send(app, 'POST', '/auth/factors/totp/confirm', { headers, json: { code: TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: clock.now() }) } });
    expect(confirm.status, 'confirmation').toBe(200);
    return { secret, recoveryCodes: (confirm.json as { recoveryCodes: string[] }).recoveryCodes };
  }

  it('keeps the TOTP secret sealed and the recovery codes as keyed digests, never as given', async () => {
    const { secret, recoveryCodes } = await enable('carol@globex.test');
    const totp = await db.pool.query<{ sealed_secret: string }>("SELECT sealed_secret FROM tessera_totp WHERE subject = 'carol'");
    expect(totp.rows[0]?.sealed_secret).toMatch(/^v1\.[0-9a-f]{8}\./);
    expect(JSON.stringify(totp.rows)).not.toContain(secret);
    const codes = await db.pool.query<{ digest: string }>("SELECT digest FROM tessera_recovery_codes WHERE subject = 'carol'");
    expect(codes.rows).toHaveLength(10);
    for (const code of recoveryCodes) expect(JSON.stringify(codes.rows)).not.toContain(code.replace(/-/g, ''));
  });

  it(`one recovery code sent ${RACERS} times at once signs in exactly once`, async () => {
    const { recoveryCodes } = await enable('alice@acme.test');
    const tokens = await Promise.all(Array.from({ length: RACERS }, () => pending('alice@acme.test')));
    const results = await Promise.all(tokens.map((pendingToken) => send(app, 'POST', '/auth/second-factor', { json: { pendingToken, recoveryCode: recoveryCodes[0] } })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200), `statuses: ${statuses.join(',')}`).toHaveLength(1);
    expect(statuses.filter((s) => s === 401)).toHaveLength(RACERS - 1);
    const left = await db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM tessera_recovery_codes WHERE subject = 'alice' AND used_at IS NULL");
    expect(left.rows[0]?.n).toBe(9);
  });

  it(`one TOTP code sent ${RACERS} times at once signs in exactly once`, async () => {
    const { secret } = await enable('bob@acme.test');
    clock.advance(30_000);
    const code = TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: clock.now() });
    const tokens = await Promise.all(Array.from({ length: RACERS }, () => pending('bob@acme.test')));
    const results = await Promise.all(tokens.map((pendingToken) => send(app, 'POST', '/auth/second-factor', { json: { pendingToken, code } })));
    expect(results.filter((r) => r.status === 200), results.map((r) => r.status).join(',')).toHaveLength(1);
  });

  it(`one pending sign-in sent ${RACERS} times at once is spent once`, async () => {
    const store = new PostgresSecondFactorStore(db.pool);
    await store.putPendingSignIn('race-token-hash', { subject: 'x', expiresAt: new Date(clock.now() + 60_000) });
    const taken = await Promise.all(Array.from({ length: RACERS }, () => store.takePendingSignIn('race-token-hash')));
    expect(taken.filter((t) => t !== undefined)).toHaveLength(1);
  });

  it('a passkey counter moves by compare-and-set: of racers from the same counter, one wins', async () => {
    const store = new PostgresSecondFactorStore(db.pool);
    await store.addPasskey({ id: 'cred-race', subject: 'x', publicKey: 'AQID', counter: 5, transports: ['internal'], createdAt: new Date(clock.now()), lastUsedAt: null });
    const won = await Promise.all(Array.from({ length: RACERS }, (_, i) => store.usePasskeyCounter('cred-race', 5, 6 + i, new Date(clock.now()))));
    expect(won.filter(Boolean)).toHaveLength(1);
    expect((await store.findPasskey('cred-race'))?.transports).toEqual(['internal']);
  });
});
