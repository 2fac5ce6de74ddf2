// The tenants app's sign-in through an outside OpenID provider (OIDC_*), against a real provider
// (oidc-provider) on loopback: the provider's verified e-mail links to the demo account with that
// address (OIDC_LINK_VERIFIED_EMAIL=true), the sign-in ends in the app's own cookie session, and
// that session reaches the account's routes that a provider's token never does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, createManualClock, type App } from '../../lib/index.js';
import { REAUTHENTICATION_REQUIRED_TYPE } from '../../lib/auth/index.js';
import { DEMO_PASSWORD } from './demo-accounts.js';
import { signInAtProvider, startOidcProvider, type TestOidcProvider } from '../../lib/auth/federation/oidc-provider.test-helper.js';
import { readTenantsConfig } from './config.js';
import { createTenantsModule } from './tenants-module.js';
import { serveTenantsOpenApi } from './openapi.js';

const APP_URL = 'http://tenants.test';
let op: TestOidcProvider;
beforeAll(async () => {
  op = await startOidcProvider({
    redirectUris: [`${APP_URL}/auth/oidc/oidc/callback`],
    accounts: [
      { sub: 'kc-bob', email: 'bob@acme.test', email_verified: true },
      { sub: 'kc-stranger', email: 'bob@acme.test', email_verified: false },
    ],
  });
});
afterAll(async () => {
  await op.close();
});

/** A browser on the tenants app: keeps the cookies it is given. */
function browserOn(app: App) {
  const cookies = new Map<string, string>();
  return async (method: string, path: string, headers: Record<string, string> = {}, body?: string) => {
    const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await app.fetch(new Request(new URL(path, APP_URL), { method, headers: cookie === '' ? headers : { ...headers, cookie }, body }));
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      const at = pair.indexOf('=');
      if (at > 0) cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  };
}

async function boot(env: Record<string, string> = {}, clock = createManualClock(Date.now())) {
  const config = readTenantsConfig(
    { AUTH_SECRET: 'tenants-test-secret-0123456789abcdef', APP_URL, OIDC_ISSUER: op.issuer, OIDC_CLIENT_ID: op.clientId, OIDC_CLIENT_SECRET: op.clientSecret, OIDC_LINK_VERIFIED_EMAIL: 'true', ...env },
    () => undefined,
  );
  return createApp(createTenantsModule(config, { clock }));
}

async function signInAs(app: App, sub: string) {
  const browser = browserOn(app);
  const start = await browser('GET', '/auth/oidc/oidc');
  expect(start.status, 'GET /auth/oidc/oidc did not redirect').toBe(303);
  op.loginAs(sub);
  const back = await signInAtProvider(start.headers.get('location') as string, APP_URL);
  if (back.kind !== 'redirect') throw new Error('expected a redirect back');
  return { browser, done: await browser('GET', back.url.pathname + back.url.search) };
}

describe('tenants: sign-in through the outside provider (OIDC_*)', () => {
  it('signs the provider\'s bob in to the demo account bob@acme.test, as a cookie session of the app', async () => {
    const app = await boot();
    const { browser, done } = await signInAs(app, 'kc-bob');
    expect(done.status, await done.clone().text()).toBe(200);
    const me = await browser('GET', '/me');
    expect(await me.json()).toEqual({ sub: 'bob', roles: ['member'], tenantId: 'acme' });
    const sessions = await browser('GET', '/auth/sessions');
    expect(sessions.status, 'the session the provider sign-in started is not the account\'s own').toBe(200);
    expect(((await sessions.json()) as unknown[]).length).toBe(1);
  });

  it('refuses a provider account whose e-mail the provider did not verify (403)', async () => {
    const app = await boot();
    const { done } = await signInAs(app, 'kc-stranger');
    expect(done.status).toBe(403);
  });

  it('does not link by e-mail unless OIDC_LINK_VERIFIED_EMAIL=true (403)', async () => {
    const app = await boot({ OIDC_LINK_VERIFIED_EMAIL: 'false' });
    const { done } = await signInAs(app, 'kc-bob');
    expect(done.status).toBe(403);
  });

  it('describes the mounted routes in the OpenAPI document', async () => {
    const app = await boot();
    serveTenantsOpenApi(app);
    const document = (await (await app.fetch(new Request(`${APP_URL}/openapi.json`))).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(document.paths['/auth/oidc/{provider}/callback'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(document.paths['/auth/oidc/{provider}']?.get, 'the start route is missing from the document').toBeDefined();
  });

  it('mounts no outside sign-in route without OIDC_ISSUER', async () => {
    const config = readTenantsConfig({ AUTH_SECRET: 'tenants-test-secret-0123456789abcdef' }, () => undefined);
    const app = await createApp(createTenantsModule(config));
    const response = await app.fetch(new Request(`${APP_URL}/auth/oidc/oidc`));
    expect([401, 404]).toContain(response.status);
  });

  it('refuses OIDC_ISSUER without OIDC_CLIENT_ID at start', () => {
    expect(() => readTenantsConfig({ OIDC_ISSUER: op.issuer }, () => undefined)).toThrow(/OIDC_CLIENT_ID/);
  });
});

// Linking and unlinking while signed in need a recent authentication, by the module's own rule
// (recentAuthSeconds, 600 by default in the tenants app): a stolen session that is not fresh
// cannot attach an attacker's provider account, nor remove the owner's.
describe('tenants: linking and unlinking the outside provider need a recent sign-in', () => {
  const STALE_MS = 601_000;

  async function setUp() {
    const clock = createManualClock(Date.now());
    const app = await boot({ OIDC_LINK_VERIFIED_EMAIL: 'false' }, clock);
    const browser = browserOn(app);
    const signIn = await browser('POST', '/auth/sign-in', { 'content-type': 'application/json' }, JSON.stringify({ identifier: 'bob@acme.test', password: DEMO_PASSWORD }));
    expect(signIn.status, await signIn.clone().text()).toBe(200);
    const bob = { authorization: `Bearer ${((await signIn.json()) as { accessToken: string }).accessToken}` };
    return { app, clock, browser, bob };
  }

  async function link(browser: ReturnType<typeof browserOn>, headers: Record<string, string>) {
    const start = await browser('POST', '/auth/oidc/oidc/link?returnTo=/settings', headers);
    if (start.status !== 303) return start;
    op.loginAs('kc-bob');
    const back = await signInAtProvider(start.headers.get('location') as string, APP_URL);
    if (back.kind !== 'redirect') throw new Error('expected a redirect back');
    return browser('GET', back.url.pathname + back.url.search);
  }

  it('links and unlinks right after a password sign-in', async () => {
    const { browser, bob } = await setUp();
    const linked = await link(browser, bob);
    expect(linked.status, `a fresh session could not link: ${await linked.clone().text()}`).toBe(200);
    const listed = await browser('GET', '/auth/identities', bob);
    expect(((await listed.json()) as { provider: string }[]).map((identity) => identity.provider)).toEqual(['oidc']);
    expect((await browser('DELETE', '/auth/identities/oidc', bob)).status, 'a fresh session could not unlink').toBe(204);
  });

  it('refuses linking with a sign-in older than the window: the reauthentication-required 401', async () => {
    const { clock, browser, bob } = await setUp();
    clock.advance(STALE_MS);
    const refused = await link(browser, bob);
    expect(refused.status, 'a stale session started linking').toBe(401);
    expect(await refused.json()).toMatchObject({ type: REAUTHENTICATION_REQUIRED_TYPE, maxAgeSeconds: 600 });
    expect(refused.headers.get('www-authenticate')).toContain('insufficient_user_authentication');
  });

  it('refuses unlinking with a sign-in older than the window, and keeps the link', async () => {
    const { clock, browser, bob } = await setUp();
    expect((await link(browser, bob)).status).toBe(200);
    clock.advance(STALE_MS);
    const refused = await browser('DELETE', '/auth/identities/oidc', bob);
    expect(refused.status, 'a stale session unlinked').toBe(401);
    expect(await refused.json()).toMatchObject({ type: REAUTHENTICATION_REQUIRED_TYPE });
    const listed = await browser('GET', '/auth/identities', bob);
    expect(((await listed.json()) as unknown[]).length, 'the link went although the unlink was refused').toBe(1);
  });

  it('refuses an API key on both routes (a machine never signed in)', async () => {
    const { app, browser } = await setUp();
    const alice = browserOn(app);
    const signIn = await alice('POST', '/auth/sign-in', { 'content-type': 'application/json' }, JSON.stringify({ identifier: 'alice@acme.test', password: DEMO_PASSWORD }));
    const authorization = `Bearer ${((await signIn.json()) as { accessToken: string }).accessToken}`;
    const created = await alice('POST', '/tenants/acme/api-keys', { authorization, 'content-type': 'application/json' }, JSON.stringify({ name: 'ci', scopes: ['posts:read'] }));
    expect(created.status, await created.clone().text()).toBe(201);
    const key = { 'x-api-key': ((await created.json()) as { key: string }).key };
    expect((await browser('POST', '/auth/oidc/oidc/link', key)).status, 'an API key started linking').toBe(401);
    expect((await browser('DELETE', '/auth/identities/oidc', key)).status, 'an API key reached unlinking').toBe(401);
  });
});
