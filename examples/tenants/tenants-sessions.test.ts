import { describe, expect, it } from 'vitest';
import { createApp, createManualClock, type App } from '../../lib/index.js';
import { send } from '../../test/http-helpers.js';
import { readTenantsConfig } from './config.js';
import { DEMO_PASSWORD } from './demo-accounts.js';
import { createTenantsModule } from './tenants-module.js';

const T0 = Date.parse('2026-11-21T12:00:00Z');

async function boot() {
  const clock = createManualClock(T0);
  const config = readTenantsConfig({ AUTH_SECRET: 'tenants-test-secret-0123456789abcdef' }, () => undefined);
  return { app: await createApp(createTenantsModule(config, { clock })), clock };
}

interface Pair { accessToken: string; refreshToken: string }
interface Session { id: string; startedAt: string; lastUsedAt: string; userAgent: string | null; clientAddress: string | null }

async function signIn(app: App, identifier: string, userAgent: string): Promise<Pair> {
  const res = await send(app, 'POST', '/auth/sign-in', { json: { identifier, password: DEMO_PASSWORD }, headers: { 'user-agent': userAgent } });
  expect(res.status, `sign-in of ${identifier}`).toBe(200);
  return res.json as Pair;
}

const bearer = (pair: Pair) => ({ authorization: `Bearer ${pair.accessToken}` });

describe('tenants: sessions per device (GET /auth/sessions, DELETE /auth/sessions/:id)', () => {
  it('lists one session per sign-in, oldest first, with its user agent and start; refresh moves lastUsedAt', async () => {
    const { app, clock } = await boot();
    const laptop = await signIn(app, 'alice@acme.test', 'Laptop/1.0');
    clock.advance(60_000);
    const phone = await signIn(app, 'alice@acme.test', 'Phone/2.0');
    clock.advance(60_000);
    expect((await send(app, 'POST', '/auth/refresh', { json: { refreshToken: laptop.refreshToken } })).status).toBe(200);
    const res = await send(app, 'GET', '/auth/sessions', { headers: bearer(phone) });
    expect(res.status).toBe(200);
    const sessions = res.json as Session[];
    expect(sessions.map((s) => s.userAgent)).toEqual(['Laptop/1.0', 'Phone/2.0']);
    expect(sessions[0]).toMatchObject({ startedAt: '2026-11-21T12:00:00.000Z', lastUsedAt: '2026-11-21T12:02:00.000Z' });
    expect(sessions[1]).toMatchObject({ startedAt: '2026-11-21T12:01:00.000Z', lastUsedAt: '2026-11-21T12:01:00.000Z' });
  });

  it("never lists another person's sessions", async () => {
    const { app } = await boot();
    await signIn(app, 'alice@acme.test', 'Alice');
    const bob = await signIn(app, 'bob@acme.test', 'Bob');
    const sessions = (await send(app, 'GET', '/auth/sessions', { headers: bearer(bob) })).json as Session[];
    expect(sessions.map((s) => s.userAgent)).toEqual(['Bob']);
  });

  it("ends one session: its refresh token and access token are refused, the other session's still work", async () => {
    const { app } = await boot();
    const laptop = await signIn(app, 'alice@acme.test', 'Laptop');
    const phone = await signIn(app, 'alice@acme.test', 'Phone');
    const [laptopSession] = (await send(app, 'GET', '/auth/sessions', { headers: bearer(phone) })).json as Session[];
    expect((await send(app, 'DELETE', `/auth/sessions/${laptopSession!.id}`, { headers: bearer(phone) })).status).toBe(204);
    expect((await send(app, 'GET', '/me', { headers: bearer(laptop) })).status, 'the ended session\'s access token').toBe(401);
    expect((await send(app, 'POST', '/auth/refresh', { json: { refreshToken: laptop.refreshToken } })).status, "the ended session's refresh token").toBe(401);
    expect((await send(app, 'GET', '/me', { headers: bearer(phone) })).status, 'the other session').toBe(200);
    expect(((await send(app, 'GET', '/auth/sessions', { headers: bearer(phone) })).json as Session[]).map((s) => s.userAgent)).toEqual(['Phone']);
  });

  it("answers 404 alike for another person's session and an unknown id, and ends nothing", async () => {
    const { app } = await boot();
    const alice = await signIn(app, 'alice@acme.test', 'Alice');
    const bob = await signIn(app, 'bob@acme.test', 'Bob');
    const [aliceSession] = (await send(app, 'GET', '/auth/sessions', { headers: bearer(alice) })).json as Session[];
    const others = await send(app, 'DELETE', `/auth/sessions/${aliceSession!.id}`, { headers: bearer(bob) });
    const unknown = await send(app, 'DELETE', '/auth/sessions/01900000-0000-7000-8000-000000000000', { headers: bearer(bob) });
    expect(others.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(others.text).toBe(unknown.text);
    expect((await send(app, 'GET', '/me', { headers: bearer(alice) })).status, "Alice's session survives Bob's attempt").toBe(200);
  });

  it('needs a sign-in of the last 10 minutes to list or end sessions (a refresh does not renew it)', async () => {
    const { app, clock } = await boot();
    const laptop = await signIn(app, 'alice@acme.test', 'Laptop');
    clock.advance(11 * 60_000);
    const refreshed = (await send(app, 'POST', '/auth/refresh', { json: { refreshToken: laptop.refreshToken } })).json as Pair;
    const listed = await send(app, 'GET', '/auth/sessions', { headers: bearer(refreshed) });
    expect(listed.status).toBe(401);
    expect(listed.json).toMatchObject({ code: 'reauthentication_required', maxAgeSeconds: 600 });
    expect((await send(app, 'DELETE', '/auth/sessions', { headers: bearer(refreshed) })).status, 'sign out everywhere').toBe(401);
    expect((await send(app, 'GET', '/me', { headers: bearer(refreshed) })).status, 'the session itself still works').toBe(200);
    const fresh = await signIn(app, 'alice@acme.test', 'Laptop again');
    expect((await send(app, 'GET', '/auth/sessions', { headers: bearer(fresh) })).status).toBe(200);
  });

  it('ends every other session and keeps the caller’s (DELETE /auth/sessions/others)', async () => {
    const { app } = await boot();
    const laptop = await signIn(app, 'alice@acme.test', 'Laptop');
    const phone = await signIn(app, 'alice@acme.test', 'Phone');
    expect((await send(app, 'DELETE', '/auth/sessions/others', { headers: bearer(phone) })).status).toBe(204);
    expect((await send(app, 'GET', '/me', { headers: bearer(laptop) })).status, 'the other session').toBe(401);
    expect((await send(app, 'GET', '/me', { headers: bearer(phone) })).status, 'this one').toBe(200);
  });

  it('needs a signed-in person: no token is 401', async () => {
    const { app } = await boot();
    expect((await send(app, 'GET', '/auth/sessions')).status).toBe(401);
  });
});
