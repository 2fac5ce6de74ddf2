import { describe, expect, it } from 'vitest';
import { createApp, createManualClock, type App } from '../../lib/index.js';
import { send } from '../../test/http-helpers.js';
import { readTenantsConfig } from './config.js';
import { DEMO_PASSWORD } from './demo-accounts.js';
import { createTenantsModule } from './tenants-module.js';

const T0 = Date.parse('2026-11-21T12:00:00Z');

async function boot(env: Record<string, string> = {}) {
  const clock = createManualClock(T0);
  const config = readTenantsConfig({ AUTH_SECRET: 'tenants-test-secret-0123456789abcdef', ...env }, () => undefined);
  return { app: await createApp(createTenantsModule(config, { clock })), clock };
}

async function signIn(app: App, identifier: string, password = DEMO_PASSWORD) {
  const res = await send(app, 'POST', '/auth/sign-in', { json: { identifier, password } });
  return res as typeof res & { json: { accessToken: string; refreshToken: string; accessTokenExpiresAt: string; refreshTokenExpiresAt: string } };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('tenants: sign-in, refresh, sign-out', () => {
  it('signs in with a TokenPair whose dates are ISO strings, and /me returns the claims', async () => {
    const { app } = await boot();
    const res = await signIn(app, 'alice@acme.test');
    expect(res.status).toBe(200);
    expect(res.json.accessTokenExpiresAt).toBe('2026-11-21T12:15:00.000Z');
    expect(res.json.refreshTokenExpiresAt).toBe('2026-12-21T12:00:00.000Z');
    const me = await send(app, 'GET', '/me', { headers: bearer(res.json.accessToken) });
    expect(me.json).toEqual({ sub: 'alice', roles: ['owner', 'member'], tenantId: 'acme' });
  });

  it('fails identically for an unknown identifier and a wrong password', async () => {
    const { app } = await boot();
    const unknown = await signIn(app, 'mallory@acme.test');
    const wrong = await signIn(app, 'alice@acme.test', 'not-the-password');
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.text).toBe(wrong.text);
    expect((unknown.json as unknown as { detail: string }).detail).toBe('Invalid credentials');
  });

  it('rotates refresh tokens, detects reuse and revokes the family, and signs out', async () => {
    const { app } = await boot();
    const first = (await signIn(app, 'bob@acme.test')).json;
    const second = await send(app, 'POST', '/auth/refresh', { json: { refreshToken: first.refreshToken } });
    expect(second.status).toBe(200);
    const secondPair = second.json as typeof first;
    // Replaying the rotated token is reuse: refused, and the successor is revoked with the family.
    expect((await send(app, 'POST', '/auth/refresh', { json: { refreshToken: first.refreshToken } })).status).toBe(401);
    expect((await send(app, 'POST', '/auth/refresh', { json: { refreshToken: secondPair.refreshToken } })).status).toBe(401);

    const other = (await signIn(app, 'bob@acme.test')).json;
    expect((await send(app, 'POST', '/auth/sign-out', { json: { refreshToken: other.refreshToken } })).status).toBe(204);
    expect((await send(app, 'POST', '/auth/sign-out', { json: { refreshToken: other.refreshToken } })).status).toBe(204);
    expect((await send(app, 'POST', '/auth/refresh', { json: { refreshToken: other.refreshToken } })).status).toBe(401);
  });

  it('honours REFRESH_REUSE_GRACE_SECONDS: a replay inside the window revokes nothing', async () => {
    const { app, clock } = await boot({ REFRESH_REUSE_GRACE_SECONDS: '30' });
    const first = (await signIn(app, 'bob@acme.test')).json;
    const second = (await send(app, 'POST', '/auth/refresh', { json: { refreshToken: first.refreshToken } })).json as typeof first;
    clock.advance(10_000);
    expect((await send(app, 'POST', '/auth/refresh', { json: { refreshToken: first.refreshToken } })).status).toBe(401);
    expect((await send(app, 'POST', '/auth/refresh', { json: { refreshToken: second.refreshToken } })).status).toBe(200);
  });

  it('never accepts a refresh token as an access token, nor the reverse', async () => {
    const { app } = await boot();
    const pair = (await signIn(app, 'alice@acme.test')).json;
    expect((await send(app, 'GET', '/me', { headers: bearer(pair.refreshToken) })).status).toBe(401);
    expect((await send(app, 'POST', '/auth/refresh', { json: { refreshToken: pair.accessToken } })).status).toBe(401);
  });

  it('expires access tokens after 900 s', async () => {
    const { app, clock } = await boot();
    const pair = (await signIn(app, 'alice@acme.test')).json;
    clock.advance(899_000);
    expect((await send(app, 'GET', '/me', { headers: bearer(pair.accessToken) })).status).toBe(200);
    clock.advance(1_000);
    expect((await send(app, 'GET', '/me', { headers: bearer(pair.accessToken) })).status).toBe(401);
  });
});

describe('tenants: posts', () => {
  it('lets members read and write their own tenant, hides other tenants (404), and reserves delete for owners', async () => {
    const { app } = await boot();
    const alice = bearer((await signIn(app, 'alice@acme.test')).json.accessToken);
    const bob = bearer((await signIn(app, 'bob@acme.test')).json.accessToken);
    const carol = bearer((await signIn(app, 'carol@globex.test')).json.accessToken);

    expect((await send(app, 'GET', '/tenants/acme/posts')).status).toBe(401);
    const created = await send(app, 'POST', '/tenants/acme/posts', { headers: bob, json: { title: 'Bob writes' } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ id: '1', title: 'Bob writes', body: '' });
    expect((await send(app, 'GET', '/tenants/acme/posts', { headers: alice })).json).toHaveLength(1);
    expect((await send(app, 'PATCH', '/tenants/acme/posts/1', { headers: bob, json: { body: 'edited' } })).json).toMatchObject({ body: 'edited' });

    for (const [method, path] of [['GET', '/tenants/acme/posts'], ['GET', '/tenants/acme/posts/1'], ['DELETE', '/tenants/acme/posts/1'], ['POST', '/tenants/acme/posts']] as const) {
      const res = await send(app, method, path, { headers: carol, json: method === 'POST' ? { title: 'x' } : undefined });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await send(app, 'GET', '/tenants/globex/posts', { headers: carol })).json).toEqual([]);

    expect((await send(app, 'DELETE', '/tenants/acme/posts/1', { headers: bob })).status).toBe(403);
    expect((await send(app, 'DELETE', '/tenants/acme/posts/1', { headers: alice })).status).toBe(204);
    expect((await send(app, 'GET', '/tenants/acme/posts/1', { headers: alice })).status).toBe(404);
  });
});
