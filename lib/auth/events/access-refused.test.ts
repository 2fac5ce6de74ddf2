// Failed authorization is logged (ASVS 5.0 16.3.2): when the module's guards refuse a caller they
// authenticated (a missing role or scope, a failed CSRF check, a sign-in not recent enough), one
// `auth.access.refused` security event says why, who, on which route; a request that passes, and a
// bad token (no caller to name), record none.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createManualClock, createToken, defineController, get, jsonLogger, post } from '../../index.js';
import { send } from '../../../test/http-helpers.js';
import { InMemoryCredentialStore, InMemoryRefreshTokenStore } from '../sessions/issuing/index.js';
import { defineAuthModule, generateApiKey, InMemoryApiKeyStore, RequireScopes, Roles, type ApiKeyStore } from '../index.js';
import { apiKeyStoreFrom, authTestApp, plainPasswordHasher as passwordHasher, TestClaims as Claims } from '../core/auth-test-app.test-helper.js';

const KEYS = createToken<ApiKeyStore>('TestKeys');

interface Line {
  readonly level: string;
  readonly event?: string;
  readonly [field: string]: unknown;
}

async function setup() {
  const lines: Line[] = [];
  const clock = createManualClock(Date.parse('2026-11-28T12:00:00.000Z'));
  const auth = defineAuthModule(Claims);
  const credentials = new InMemoryCredentialStore<z.output<typeof Claims>>([{ identifier: 'ada@example.test', subject: 'u_ada', passwordHash: 'plain:pw', claims: { sub: 'u_ada', roles: ['member'] } }]);
  const keys = new InMemoryApiKeyStore();
  const generated = generateApiKey();
  await keys.add({ id: generated.id, secretHash: generated.secretHash, claims: { sub: 'machine', roles: ['member'] }, scopes: ['posts:read'] });
  const controller = defineController({
    name: 'Things',
    routes: () => ({
      read: get('/things', () => 'things'),
      admin: get('/admin', { metadata: [Roles('admin')] }, () => 'admin'),
      write: post('/things', () => 'written'),
      scoped: get('/scoped', { metadata: [RequireScopes('posts:write')] }, () => 'scoped'),
      recent: get('/recent', { guards: [auth.requireRecentAuth()] }, () => 'recent'),
    }),
  });
  const app = await authTestApp({
    auth,
    stores: [{ provide: InMemoryCredentialStore, useValue: credentials }, { provide: KEYS, useValue: keys }],
    forRoot: (Stores) => ({
      clock,
      protectAllRoutes: true,
      issuing: { credentialStore: { useExisting: InMemoryCredentialStore }, refreshTokenStore: InMemoryRefreshTokenStore, imports: [Stores], passwordHasher },
      apiKeys: { store: apiKeyStoreFrom(KEYS), imports: [Stores] },
      browser: {},
    }),
    controllers: [controller],
    app: { logger: jsonLogger({ write: (line) => lines.push(JSON.parse(line) as Line) }) },
  });
  const { accessToken } = await app.get(auth.AUTH_SERVICE).signIn('ada@example.test', 'pw');
  const refusals = () => lines.filter((line) => line.event === 'auth.access.refused');
  return { app, clock, accessToken, apiKey: generated.key, keyId: generated.id, refusals };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('refused access as a security event (ASVS 16.3.2)', () => {
  it('a token without the route\'s role: one event naming the reason, the person and the route', async () => {
    const { app, accessToken, refusals } = await setup();
    expect((await send(app, 'GET', '/admin', { headers: bearer(accessToken) })).status).toBe(403);
    expect(refusals(), 'the refused role was not logged').toEqual([expect.objectContaining({ level: 'info', securityEvent: true, reason: 'role', subject: 'u_ada', route: 'GET /admin' })]);
  });

  it('an API key without the route\'s scope: the key id and reason scope', async () => {
    const { app, apiKey, keyId, refusals } = await setup();
    expect((await send(app, 'GET', '/scoped', { headers: { 'x-api-key': apiKey } })).status).toBe(403);
    expect(refusals()).toEqual([expect.objectContaining({ reason: 'scope', keyId, route: 'GET /scoped' })]);
  });

  it('a cookie-authenticated write without the CSRF token: a warning with reason csrf', async () => {
    const { app, accessToken, refusals } = await setup();
    const response = await send(app, 'POST', '/things', { headers: { cookie: `__Host-tessera-access=${accessToken}`, 'sec-fetch-site': 'same-origin' } });
    expect(response.status).toBe(403);
    expect(refusals(), 'the failed CSRF check was not logged as a warning').toEqual([expect.objectContaining({ level: 'warn', reason: 'csrf', subject: 'u_ada', route: 'POST /things' })]);
  });

  it('a sign-in older than the route accepts, and an API key where a person must have signed in: reason recent-auth', async () => {
    const { app, clock, accessToken, apiKey, keyId, refusals } = await setup();
    clock.advance(11 * 60 * 1000);
    expect((await send(app, 'GET', '/recent', { headers: bearer(accessToken) })).status).toBe(401);
    expect((await send(app, 'GET', '/recent', { headers: { 'x-api-key': apiKey } })).status).toBe(403);
    expect(refusals()).toEqual([
      expect.objectContaining({ reason: 'recent-auth', subject: 'u_ada', route: 'GET /recent' }),
      expect.objectContaining({ reason: 'recent-auth', keyId, route: 'GET /recent' }),
    ]);
  });

  it('records nothing for requests that pass, nor for a bad token (no caller to name)', async () => {
    const { app, accessToken, apiKey, refusals } = await setup();
    expect((await send(app, 'GET', '/things', { headers: bearer(accessToken) })).status).toBe(200);
    expect((await send(app, 'GET', '/things', { headers: { 'x-api-key': apiKey } })).status).toBe(200);
    expect((await send(app, 'GET', '/recent', { headers: bearer(accessToken) })).status).toBe(200);
    expect((await send(app, 'GET', '/admin', { headers: bearer(`${accessToken}x`) })).status).toBe(401);
    expect(refusals(), 'an event for a request that was not an authorization failure').toEqual([]);
  });
});
