// Every answer of the tenants app that carries a token, a key or a secret says
// `Cache-Control: no-store` (RFC 6749 section 5.1, ASVS 5.0 14.3.2). Issue 48 found the JSON
// sign-in, refresh and API-key creation answers cacheable.
import { describe, expect, it } from 'vitest';
import { createApp, createManualClock, silentLogger, type App } from '../../lib/index.js';
import { send } from '../../test/http-helpers.js';
import { readTenantsConfig } from './config.js';
import { DEMO_PASSWORD } from './demo-accounts.js';
import { createTenantsModule } from './tenants-module.js';

async function boot(): Promise<App> {
  const config = readTenantsConfig({ AUTH_SECRET: 'tenants-test-secret-0123456789abcdef', APP_URL: 'https://tenants.example' }, () => undefined);
  return createApp(createTenantsModule(config, { clock: createManualClock(Date.parse('2026-11-28T06:00:00Z')) }), { logger: silentLogger });
}

const signIn = (app: App) => send(app, 'POST', '/auth/sign-in', { json: { identifier: 'alice@acme.test', password: DEMO_PASSWORD } });
const tokensOf = (answer: { json: unknown }) => answer.json as { accessToken: string; refreshToken: string };

/** The session cookies and CSRF token of a browser sign-in, as the next request sends them. */
function browserCredentials(headers: Headers): { cookie: string; csrf: string } {
  const pairs = headers.getSetCookie().map((line) => line.split(';')[0] ?? '');
  const csrf = pairs.find((pair) => pair.startsWith('__Host-tessera-csrf='))?.split('=')[1] ?? '';
  return { cookie: pairs.join('; '), csrf: decodeURIComponent(csrf) };
}

describe('tenants: answers that carry a token, a key or a secret are never stored by a cache', () => {
  it('POST /auth/sign-in (an access and a refresh token)', async () => {
    const answer = await signIn(await boot());
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get('cache-control'), 'the sign-in answer may be cached').toBe('no-store');
  });

  it('POST /auth/refresh (a new pair)', async () => {
    const app = await boot();
    const answer = await send(app, 'POST', '/auth/refresh', { json: { refreshToken: tokensOf(await signIn(app)).refreshToken } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get('cache-control'), 'the refresh answer may be cached').toBe('no-store');
  });

  it('POST /tenants/:tenantId/api-keys (the key, shown once)', async () => {
    const app = await boot();
    const answer = await send(app, 'POST', '/tenants/acme/api-keys', { headers: { authorization: `Bearer ${tokensOf(await signIn(app)).accessToken}` }, json: { name: 'ci', scopes: ['posts:read'] } });
    expect(answer.status, answer.text).toBe(201);
    expect((answer.json as { key?: string }).key, 'no key in the answer').toMatch(/^tsk_/);
    expect(answer.headers.get('cache-control'), 'the API-key creation answer may be cached').toBe('no-store');
  });

  it('POST /tenants/:tenantId/api-keys replayed by its Idempotency-Key (the same key again)', async () => {
    const app = await boot();
    const headers = { authorization: `Bearer ${tokensOf(await signIn(app)).accessToken}`, 'idempotency-key': '"key-answer-replay"' };
    const first = await send(app, 'POST', '/tenants/acme/api-keys', { headers, json: { name: 'ci', scopes: ['posts:read'] } });
    const replay = await send(app, 'POST', '/tenants/acme/api-keys', { headers, json: { name: 'ci', scopes: ['posts:read'] } });
    expect(replay.text, 'not a replay of the first answer').toBe(first.text);
    expect(replay.headers.get('cache-control'), 'the replayed key may be cached').toBe('no-store');
  });

  it('POST /auth/browser/sign-in (session cookies and a CSRF token)', async () => {
    const answer = await send(await boot(), 'POST', '/auth/browser/sign-in', { json: { identifier: 'alice@acme.test', password: DEMO_PASSWORD }, headers: { 'sec-fetch-site': 'same-origin' } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get('cache-control'), 'the browser sign-in answer may be cached').toBe('no-store');
  });

  it('POST /auth/browser/refresh (new session cookies and CSRF token)', async () => {
    const app = await boot();
    const signedIn = await send(app, 'POST', '/auth/browser/sign-in', { json: { identifier: 'alice@acme.test', password: DEMO_PASSWORD }, headers: { 'sec-fetch-site': 'same-origin' } });
    const { cookie, csrf } = browserCredentials(signedIn.headers);
    const answer = await send(app, 'POST', '/auth/browser/refresh', { headers: { cookie, 'x-csrf-token': csrf, 'sec-fetch-site': 'same-origin' } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get('cache-control'), 'the browser refresh answer may be cached').toBe('no-store');
  });
});
