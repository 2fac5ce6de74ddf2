import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, createManualClock } from '../../lib/index.js';
import { send } from '../../test/http-helpers.js';
import { makeIssuerKey, signWith, startJwksServer } from '../../lib/auth/credentials/jwt/outside-issuer.test-helper.js';
import type { IssuerKey, JwksServer } from '../../lib/auth/credentials/jwt/outside-issuer.test-helper.js';
import { readTenantsConfig } from './config.js';
import { DEMO_PASSWORD } from './demo-accounts.js';
import { newSessionId } from '../../lib/auth/sessions/state/session-id.js';
import { createTenantsModule } from './tenants-module.js';

const T0 = Date.parse('2026-11-21T12:00:00Z');
const IDP = 'https://login.acme.example/realms/acme';
const AUDIENCE = 'tenants-api';

let key: IssuerKey;
let server: JwksServer;
beforeAll(async () => {
  key = await makeIssuerKey('RS256', 'realm-key-1');
  server = await startJwksServer([key.jwk]);
});
afterAll(async () => {
  await server.close();
});

async function boot(env: Record<string, string> = {}) {
  const clock = createManualClock(T0);
  const config = readTenantsConfig(
    { AUTH_SECRET: 'tenants-test-secret-0123456789abcdef', AUTH_JWKS_URL: server.url, AUTH_JWKS_ISSUER: IDP, AUTH_JWKS_AUDIENCE: `other-api, ${AUDIENCE}`, ...env },
    () => undefined,
  );
  return { app: await createApp(createTenantsModule(config, { clock })), clock };
}

const idpToken = (claims: Record<string, unknown> = {}) =>
  signWith(key, { iss: IDP, aud: AUDIENCE, sub: 'kc|dora', roles: ['member'], tenantId: 'acme', iat: T0 / 1000, exp: T0 / 1000 + 300, ...claims });
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

describe('tenants: tokens from an identity provider (AUTH_JWKS_*)', () => {
  it('accepts the provider\'s token on /me with its claims', async () => {
    const { app } = await boot();
    const me = await send(app, 'GET', '/me', bearer(await idpToken()));
    expect(me.status).toBe(200);
    expect(me.json).toEqual({ sub: 'kc|dora', roles: ['member'], tenantId: 'acme' });
  });

  it('applies tenancy to the provider\'s tokens: own tenant 201, another tenant 404', async () => {
    const { app } = await boot();
    const token = await idpToken();
    expect((await send(app, 'POST', '/tenants/acme/posts', { ...bearer(token), json: { title: 'From the IdP' } })).status).toBe(201);
    expect((await send(app, 'GET', '/tenants/globex/posts', bearer(token))).status).toBe(404);
  });

  it('refuses a provider token without the tenantId claim, for another audience, or signed by another key', async () => {
    const { app } = await boot();
    const stranger = await makeIssuerKey('RS256', 'realm-key-1');
    for (const token of [await idpToken({ tenantId: undefined }), await idpToken({ aud: 'account' }), await signWith(stranger, { iss: IDP, aud: AUDIENCE, sub: 'x', roles: [], tenantId: 'acme', exp: T0 / 1000 + 300 })]) {
      expect((await send(app, 'GET', '/me', bearer(token))).status).toBe(401);
    }
  });

  it('keeps its own sign-in working next to the provider', async () => {
    const { app } = await boot();
    const signIn = await send(app, 'POST', '/auth/sign-in', { json: { identifier: 'alice@acme.test', password: DEMO_PASSWORD } });
    const own = (signIn.json as { accessToken: string }).accessToken;
    expect((await send(app, 'GET', '/me', bearer(own))).status).toBe(200);
  });

  it('applies AUTH_CLOCK_TOLERANCE_SECONDS to the provider\'s expiry', async () => {
    const { app, clock } = await boot({ AUTH_CLOCK_TOLERANCE_SECONDS: '20' });
    const token = await idpToken();
    clock.advance((300 + 19) * 1000);
    expect((await send(app, 'GET', '/me', bearer(token))).status).toBe(200);
    clock.advance(1000);
    expect((await send(app, 'GET', '/me', bearer(token))).status).toBe(401);
  });

  it('refuses to start with AUTH_JWKS_URL but no issuer or audience', () => {
    expect(() => readTenantsConfig({ AUTH_JWKS_URL: server.url, AUTH_JWKS_AUDIENCE: AUDIENCE }, () => undefined)).toThrow(/AUTH_JWKS_ISSUER/);
    expect(() => readTenantsConfig({ AUTH_JWKS_URL: server.url, AUTH_JWKS_ISSUER: IDP }, () => undefined)).toThrow(/AUTH_JWKS_AUDIENCE/);
  });
});

describe('tenants: a provider\'s subject is not the local account with that id (ASVS 6.8.1)', () => {
  const asBob = () => idpToken({ sub: 'bob' });
  async function bobSignedIn(app: Awaited<ReturnType<typeof boot>>['app']) {
    const signIn = await send(app, 'POST', '/auth/sign-in', { json: { identifier: 'bob@acme.test', password: DEMO_PASSWORD } });
    return (signIn.json as { accessToken: string }).accessToken;
  }

  it('refuses a provider token for sub "bob" on local bob\'s session list (401, nothing listed)', async () => {
    const { app } = await boot();
    await bobSignedIn(app);
    const list = await send(app, 'GET', '/auth/sessions', bearer(await asBob()));
    expect(list.status, `the provider's bob read local bob's sessions: ${JSON.stringify(list.json)}`).toBe(401);
  });

  it('refuses "sign out everywhere" with a provider token for sub "bob", and local bob stays signed in', async () => {
    const { app } = await boot();
    const own = await bobSignedIn(app);
    expect((await send(app, 'DELETE', '/auth/sessions', bearer(await asBob()))).status, 'the provider token ended sessions').toBe(401);
    const mine = await send(app, 'GET', '/auth/sessions', bearer(own));
    expect(mine.status, 'local bob was signed out by the provider\'s bob').toBe(200);
    expect((mine.json as unknown[]).length).toBe(1);
  });

  it('refuses a provider token for sub "bob" on local bob\'s password and e-mail change', async () => {
    const { app } = await boot();
    const token = await asBob();
    const password = await send(app, 'POST', '/auth/password/change', { ...bearer(token), json: { currentPassword: DEMO_PASSWORD, newPassword: 'a-new-long-passphrase-for-bob' } });
    expect(password.status, 'the provider token reached the password change').toBe(401);
    const email = await send(app, 'POST', '/auth/email/change', { ...bearer(token), json: { currentPassword: DEMO_PASSWORD, newEmail: 'mallory@evil.test' } });
    expect(email.status, 'the provider token reached the e-mail change').toBe(401);
  });

  it('does not replay local bob\'s idempotent answer to the provider\'s bob', async () => {
    const { app } = await boot();
    const own = await bobSignedIn(app);
    const headers = (token: string) => ({ authorization: `Bearer ${token}`, 'idempotency-key': 'same-key-0001' });
    const first = await send(app, 'POST', '/tenants/acme/posts', { headers: headers(own), json: { title: 'Local bob' } });
    expect(first.status).toBe(201);
    const second = await send(app, 'POST', '/tenants/acme/posts', { headers: headers(await asBob()), json: { title: 'Provider bob' } });
    expect(second.status).toBe(201);
    expect((second.json as { title: string }).title, 'the provider\'s bob got local bob\'s stored answer').toBe('Provider bob');
  });

  // Step-up reads the runtime's record of the verified token (one "own token" rule): a provider's
  // token may carry a `sid` of its own (OpenID providers do), which is no session of this app.
  it('refuses API-key creation (step-up) to a provider token for an owner that carries a fresh-looking sid (403)', async () => {
    const { app } = await boot();
    const token = await idpToken({ sub: 'alice', roles: ['owner'], sid: newSessionId(T0) });
    const created = await send(app, 'POST', '/tenants/acme/api-keys', { ...bearer(token), json: { name: 'ci', scopes: ['posts:read'] } });
    expect(created.status, `a provider token stepped up as a session of the app: ${JSON.stringify(created.json)}`).toBe(403);
    expect(created.json).toMatchObject({ code: 'STEP_UP_NOT_POSSIBLE' });
  });

  // The factor routes act on the local account of the app's own session (getAccountId), never on
  // a provider token's `sub`: else a provider's "alice" enrols an authenticator (or a passkey,
  // which signs in alone) on local alice's account, and ends her other sessions on confirming.
  it('refuses a provider token for sub "alice" on local alice\'s factor routes (401, nothing enrolled)', async () => {
    const { app } = await boot();
    const token = await idpToken({ sub: 'alice' });
    const enrol = await send(app, 'POST', '/auth/factors/totp', { ...bearer(token), json: {} });
    expect(enrol.status, `the provider's alice enrolled a TOTP on local alice: ${JSON.stringify(enrol.json)}`).toBe(401);
    expect((await send(app, 'GET', '/auth/factors', bearer(token))).status, 'the provider\'s alice read local alice\'s factors').toBe(401);
    expect((await send(app, 'POST', '/auth/passkeys/registration-options', bearer(token))).status, 'the provider\'s alice started a passkey registration for local alice').toBe(401);
    const own = await send(app, 'POST', '/auth/sign-in', { json: { identifier: 'alice@acme.test', password: DEMO_PASSWORD } });
    expect(own.status, 'local alice must still sign in in one step').toBe(200);
  });

  it('still lets the provider\'s token read /me and its tenant', async () => {
    const { app } = await boot();
    expect((await send(app, 'GET', '/me', bearer(await asBob()))).status).toBe(200);
  });
});
