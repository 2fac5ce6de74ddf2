// Browser sessions over app.fetch: the cookies' exact flags, rotation and reuse detection through
// the refresh cookie, the guards accepting the access-token cookie, and the CSRF defence
// (refusals and acceptances), all against the in-memory stores and a manual clock.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { send } from '../../../../test/http-helpers.js';
import { AuthConfigError, defineAuthModule } from '../../index.js';
import { ALICE, BOB, SAME_ORIGIN, browserSignIn, browserTestApp, jarOf, setCookies } from './browser-test-app.test-helper.js';

const problemOf = (res: { status: number; headers: Headers; json: unknown }) => ({ status: res.status, type: res.headers.get('content-type'), body: res.json });
const forbidden = (detail: string) => ({ status: 403, type: 'application/problem+json', body: expect.objectContaining({ status: 403, title: 'Forbidden', detail }) });

describe('browser sign-in', () => {
  it('sets the access and refresh tokens in __Host- HttpOnly Secure SameSite=Strict cookies and the CSRF token in a readable one', async () => {
    const { app } = await browserTestApp();
    const res = await send(app, 'POST', '/auth/browser/sign-in', { json: { identifier: ALICE.identifier, password: ALICE.password }, headers: { ...SAME_ORIGIN } });
    expect(res.status).toBe(200);
    const cookies = setCookies(res.headers);
    const access = cookies.get('__Host-tessera-access');
    const refresh = cookies.get('__Host-tessera-refresh');
    const csrf = cookies.get('__Host-tessera-csrf');
    expect(access?.header, 'access cookie: 15 min like the token, HttpOnly').toBe(`__Host-tessera-access=${access?.value}; Path=/; Max-Age=900; HttpOnly; Secure; SameSite=Strict`);
    expect(refresh?.header, 'refresh cookie: 30 days like the token, HttpOnly').toBe(`__Host-tessera-refresh=${refresh?.value}; Path=/; Max-Age=2592000; HttpOnly; Secure; SameSite=Strict`);
    expect(csrf?.header, 'csrf cookie: readable by the page (no HttpOnly)').toBe(`__Host-tessera-csrf=${csrf?.value}; Path=/; Max-Age=2592000; Secure; SameSite=Strict`);
    expect(res.headers.get('cache-control'), 'a response setting session cookies is never cached').toBe('no-store');
    expect([...cookies.keys()].sort()).toEqual(['__Host-tessera-access', '__Host-tessera-csrf', '__Host-tessera-refresh']);
  });

  it('answers no token in the body: only the expiries and the CSRF token', async () => {
    const { app } = await browserTestApp();
    const res = await send(app, 'POST', '/auth/browser/sign-in', { json: { identifier: ALICE.identifier, password: ALICE.password }, headers: { ...SAME_ORIGIN } });
    const jar = jarOf(res.headers);
    expect(res.json).toEqual({ accessTokenExpiresAt: '2026-11-25T12:15:00.000Z', refreshTokenExpiresAt: '2026-12-25T12:00:00.000Z', csrfToken: jar.csrf });
    expect(res.text).not.toContain(jar.access);
    expect(res.text).not.toContain(jar.refresh);
  });

  it('uses __Secure- cookies with the Domain for the cross-subdomain case, and SameSite=Lax when asked', async () => {
    const { app } = await browserTestApp({ domain: 'example.com', sameSite: 'Lax' });
    const res = await send(app, 'POST', '/auth/browser/sign-in', { json: { identifier: ALICE.identifier, password: ALICE.password }, headers: { ...SAME_ORIGIN } });
    const cookies = setCookies(res.headers);
    const refresh = cookies.get('__Secure-tessera-refresh');
    expect(refresh?.header).toBe(`__Secure-tessera-refresh=${refresh?.value}; Path=/; Domain=example.com; Max-Age=2592000; HttpOnly; Secure; SameSite=Lax`);
    expect(cookies.get('__Secure-tessera-csrf')?.header).toMatch(/^__Secure-tessera-csrf=[^;]+; Path=\/; Domain=example\.com; Max-Age=2592000; Secure; SameSite=Lax$/);
    expect([...cookies.keys()].some((name) => name.startsWith('__Host-')), 'a __Host- cookie may not carry Domain').toBe(false);
  });

  it('refuses a cross-site sign-in (a page of another site signing the visitor into an account it chose) with a 403 problem and no cookie', async () => {
    const { app } = await browserTestApp();
    const res = await send(app, 'POST', '/auth/browser/sign-in', { json: { identifier: ALICE.identifier, password: ALICE.password }, headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.test' } });
    expect(problemOf(res)).toEqual(forbidden('Cross-site request refused'));
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('answers a wrong password with the usual 401 and no cookie', async () => {
    const { app } = await browserTestApp();
    const res = await send(app, 'POST', '/auth/browser/sign-in', { json: { identifier: ALICE.identifier, password: 'wrong' }, headers: { ...SAME_ORIGIN } });
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('refuses browser sessions without issuing at forRoot (AuthConfigError)', () => {
    const { AuthModule } = defineAuthModule(z.object({ sub: z.string() }));
    expect(() => AuthModule.forRoot({ secret: 'a-test-secret-that-is-long-enough-for-hs256!', browser: {} })).toThrow(AuthConfigError);
  });

  it('refuses a domain that is not a parent domain at forRoot', async () => {
    await expect(browserTestApp({ domain: '.example.com' })).rejects.toThrow(/browser.domain/);
    await expect(browserTestApp({ domain: 'https://example.com' })).rejects.toThrow(/browser.domain/);
  });
});

describe('guards with the access-token cookie', () => {
  it('JwtAuthGuard accepts the access-token cookie on a safe request, with no CSRF token', async () => {
    const { app } = await browserTestApp();
    const jar = await browserSignIn(app);
    const res = await send(app, 'GET', '/me', { headers: { cookie: jar.cookie } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ sub: ALICE.subject });
  });

  it('ignores the cookie when browser sessions are not configured (401)', async () => {
    const { app: withBrowser } = await browserTestApp();
    const jar = await browserSignIn(withBrowser);
    const { app } = await browserTestApp(null);
    expect((await send(app, 'GET', '/me', { headers: { cookie: jar.cookie } })).status).toBe(401);
  });

  it('judges a request with an Authorization header by the header alone, even when a valid cookie is there', async () => {
    const { app } = await browserTestApp();
    const jar = await browserSignIn(app);
    expect((await send(app, 'GET', '/me', { headers: { cookie: jar.cookie, authorization: 'Bearer not-a-token' } })).status).toBe(401);
  });

  it('AuthGuard accepts the cookie too', async () => {
    const { app } = await browserTestApp();
    const jar = await browserSignIn(app);
    const res = await send(app, 'GET', '/sessions', { headers: { cookie: jar.cookie } });
    expect(res.status).toBe(200);
    expect(res.json).toHaveLength(1);
  });

  it('refuses an expired access cookie with the usual 401', async () => {
    const { app, clock } = await browserTestApp();
    const jar = await browserSignIn(app);
    clock.advance(901_000);
    expect((await send(app, 'GET', '/me', { headers: { cookie: jar.cookie } })).status).toBe(401);
  });
});

describe('CSRF defence on cookie-authenticated unsafe requests', () => {
  it('accepts a same-origin request carrying the session\'s CSRF token', async () => {
    const { app } = await browserTestApp();
    const jar = await browserSignIn(app);
    const res = await send(app, 'POST', '/notes', { headers: { cookie: jar.cookie, 'x-csrf-token': jar.csrf, 'sec-fetch-site': 'same-origin' } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ by: ALICE.subject });
  });

  it('accepts, without Sec-Fetch-Site (an older browser), an Origin equal to the API\'s own https origin', async () => {
    const { app } = await browserTestApp();
    const jar = await browserSignIn(app);
    expect((await send(app, 'POST', '/notes', { headers: { cookie: jar.cookie, 'x-csrf-token': jar.csrf, origin: 'https://localhost' } })).status).toBe(200);
  });

  it('accepts a same-site request from an allowed origin (the app on a sibling subdomain)', async () => {
    const { app } = await browserTestApp({ allowedOrigins: ['https://app.example.com'] });
    const jar = await browserSignIn(app);
    const res = await send(app, 'POST', '/notes', { headers: { cookie: jar.cookie, 'x-csrf-token': jar.csrf, 'sec-fetch-site': 'same-site', origin: 'https://app.example.com' } });
    expect(res.status).toBe(200);
  });

  it('refuses a same-site request from an origin not in the list', async () => {
    const { app } = await browserTestApp({ allowedOrigins: ['https://app.example.com'] });
    const jar = await browserSignIn(app);
    const res = await send(app, 'POST', '/notes', { headers: { cookie: jar.cookie, 'x-csrf-token': jar.csrf, 'sec-fetch-site': 'same-site', origin: 'https://blog.example.com' } });
    expect(problemOf(res)).toEqual(forbidden('Cross-site request refused'));
  });

  it('refuses Sec-Fetch-Site: cross-site, even with the right token', async () => {
    const { app } = await browserTestApp({ allowedOrigins: ['https://app.example.com'] });
    const jar = await browserSignIn(app);
    const res = await send(app, 'POST', '/notes', { headers: { cookie: jar.cookie, 'x-csrf-token': jar.csrf, 'sec-fetch-site': 'cross-site', origin: 'https://app.example.com' } });
    expect(problemOf(res)).toEqual(forbidden('Cross-site request refused'));
  });

  it('refuses a cross-site Origin when the browser sends no Sec-Fetch-Site', async () => {
    const { app } = await browserTestApp();
    const jar = await browserSignIn(app);
    const res = await send(app, 'POST', '/notes', { headers: { cookie: jar.cookie, 'x-csrf-token': jar.csrf, origin: 'https://evil.test' } });
    expect(problemOf(res)).toEqual(forbidden('Cross-site request refused'));
  });

  it('refuses Origin: null, and an http:// origin of the same host', async () => {
    const { app } = await browserTestApp();
    const jar = await browserSignIn(app);
    for (const origin of ['null', 'http://localhost']) {
      const res = await send(app, 'POST', '/notes', { headers: { cookie: jar.cookie, 'x-csrf-token': jar.csrf, origin } });
      expect(res.status, `Origin: ${origin}`).toBe(403);
    }
  });

  it('refuses (fails closed) a request with neither Sec-Fetch-Site nor Origin', async () => {
    const { app } = await browserTestApp();
    const jar = await browserSignIn(app);
    const res = await send(app, 'POST', '/notes', { headers: { cookie: jar.cookie, 'x-csrf-token': jar.csrf } });
    expect(problemOf(res)).toEqual(forbidden('Cross-site request refused'));
  });

  it('refuses a same-origin request without the CSRF token', async () => {
    const { app } = await browserTestApp();
    const jar = await browserSignIn(app);
    const res = await send(app, 'POST', '/notes', { headers: { cookie: jar.cookie, 'sec-fetch-site': 'same-origin' } });
    expect(problemOf(res)).toEqual(forbidden('Missing or invalid CSRF token'));
  });

  it('refuses a wrong CSRF token (one character changed)', async () => {
    const { app } = await browserTestApp();
    const jar = await browserSignIn(app);
    const wrong = jar.csrf.slice(0, -1) + (jar.csrf.endsWith('A') ? 'B' : 'A');
    const res = await send(app, 'POST', '/notes', { headers: { cookie: jar.cookie, 'x-csrf-token': wrong, 'sec-fetch-site': 'same-origin' } });
    expect(problemOf(res)).toEqual(forbidden('Missing or invalid CSRF token'));
  });

  it('refuses the CSRF token of another session, even one of the same person', async () => {
    const { app } = await browserTestApp();
    const jar = await browserSignIn(app);
    const other = await browserSignIn(app, ALICE);
    const bobs = await browserSignIn(app, BOB);
    for (const csrf of [other.csrf, bobs.csrf]) {
      const res = await send(app, 'POST', '/notes', { headers: { cookie: jar.cookie, 'x-csrf-token': csrf, 'sec-fetch-site': 'same-origin' } });
      expect(problemOf(res)).toEqual(forbidden('Missing or invalid CSRF token'));
    }
  });

  it('refuses a CSRF cookie value planted by a sibling subdomain: the header must match the session, not the cookie', async () => {
    const { app } = await browserTestApp();
    const jar = await browserSignIn(app);
    const planted = 'planted.value';
    const cookie = jar.cookie.replace(`__Host-tessera-csrf=${jar.csrf}`, `__Host-tessera-csrf=${planted}`);
    const res = await send(app, 'POST', '/notes', { headers: { cookie, 'x-csrf-token': planted, 'sec-fetch-site': 'same-origin' } });
    expect(res.status).toBe(403);
  });

  it('leaves a header-authenticated request alone: no CSRF token, even marked cross-site', async () => {
    const { app } = await browserTestApp();
    const pair = (await send(app, 'POST', '/auth/sign-in', { json: { identifier: ALICE.identifier, password: ALICE.password } })).json as { accessToken: string };
    const res = await send(app, 'POST', '/notes', { headers: { authorization: `Bearer ${pair.accessToken}`, 'sec-fetch-site': 'cross-site', origin: 'https://evil.test' } });
    expect(res.status).toBe(200);
  });

  it('applies the CSRF checks on AuthGuard routes too (DELETE /sessions/:id)', async () => {
    const { app } = await browserTestApp();
    const jar = await browserSignIn(app);
    const res = await send(app, 'DELETE', '/sessions/whatever', { headers: { cookie: jar.cookie, 'sec-fetch-site': 'same-origin' } });
    expect(problemOf(res)).toEqual(forbidden('Missing or invalid CSRF token'));
  });
});

describe('browser refresh', () => {
  it('rotates through the refresh cookie: new cookies, same session, same CSRF token', async () => {
    const { app, clock } = await browserTestApp();
    const jar = await browserSignIn(app);
    clock.advance(901_000);
    const res = await send(app, 'POST', '/auth/browser/refresh', { headers: { cookie: jar.cookie, 'x-csrf-token': jar.csrf, ...SAME_ORIGIN } });
    expect(res.status).toBe(200);
    const next = jarOf(res.headers);
    expect(next.refresh, 'rotated').not.toBe(jar.refresh);
    expect(next.csrf, 'the session, hence its CSRF token, is the same').toBe(jar.csrf);
    expect((await send(app, 'GET', '/me', { headers: { cookie: next.cookie } })).status, 'the new access cookie works').toBe(200);
  });

  it('detects reuse through the cookie: the rotated refresh token comes back, the whole session is revoked', async () => {
    const { app } = await browserTestApp();
    const jar = await browserSignIn(app);
    const refresh = (cookie: string, csrf: string) => send(app, 'POST', '/auth/browser/refresh', { headers: { cookie, 'x-csrf-token': csrf, ...SAME_ORIGIN } });
    const first = await refresh(jar.cookie, jar.csrf);
    const next = jarOf(first.headers);
    expect((await refresh(jar.cookie, jar.csrf)).status, 'the rotated token is refused').toBe(401);
    expect((await refresh(next.cookie, next.csrf)).status, 'and its successor is revoked with the family').toBe(401);
    expect((await send(app, 'GET', '/me', { headers: { cookie: next.cookie } })).status, 'the session\'s access token is refused at once').toBe(401);
  });

  it('refuses a refresh without the CSRF token (403) and leaves the token unrotated', async () => {
    const { app, refreshTokens } = await browserTestApp();
    const jar = await browserSignIn(app);
    const res = await send(app, 'POST', '/auth/browser/refresh', { headers: { cookie: jar.cookie, ...SAME_ORIGIN } });
    expect(problemOf(res)).toEqual(forbidden('Missing or invalid CSRF token'));
    expect(refreshTokens.records().every((r) => r.rotatedAt === null), 'nothing rotated').toBe(true);
  });

  it('refuses a refresh with another session\'s CSRF token', async () => {
    const { app } = await browserTestApp();
    const jar = await browserSignIn(app);
    const other = await browserSignIn(app);
    const res = await send(app, 'POST', '/auth/browser/refresh', { headers: { cookie: jar.cookie, 'x-csrf-token': other.csrf, ...SAME_ORIGIN } });
    expect(res.status).toBe(403);
  });

  it('refuses a cross-site refresh', async () => {
    const { app } = await browserTestApp();
    const jar = await browserSignIn(app);
    const res = await send(app, 'POST', '/auth/browser/refresh', { headers: { cookie: jar.cookie, 'x-csrf-token': jar.csrf, 'sec-fetch-site': 'cross-site' } });
    expect(problemOf(res)).toEqual(forbidden('Cross-site request refused'));
  });

  it('answers 401 without a refresh cookie', async () => {
    const { app } = await browserTestApp();
    expect((await send(app, 'POST', '/auth/browser/refresh', { headers: { ...SAME_ORIGIN } })).status).toBe(401);
  });
});

describe('browser sign-out', () => {
  it('ends the session (its access cookie is refused at once) and deletes the three cookies', async () => {
    const { app } = await browserTestApp();
    const jar = await browserSignIn(app);
    const res = await send(app, 'POST', '/auth/browser/sign-out', { headers: { cookie: jar.cookie, 'x-csrf-token': jar.csrf, ...SAME_ORIGIN } });
    expect(res.status).toBe(204);
    const cleared = setCookies(res.headers);
    expect(cleared.get('__Host-tessera-refresh')?.header).toBe('__Host-tessera-refresh=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Strict');
    expect([...cleared.values()].map((c) => c.value)).toEqual(['', '', '']);
    expect((await send(app, 'GET', '/me', { headers: { cookie: jar.cookie } })).status).toBe(401);
    expect((await send(app, 'POST', '/auth/browser/refresh', { headers: { cookie: jar.cookie, 'x-csrf-token': jar.csrf, ...SAME_ORIGIN } })).status).toBe(401);
  });

  it('refuses a sign-out without the CSRF token and keeps the session', async () => {
    const { app } = await browserTestApp();
    const jar = await browserSignIn(app);
    const res = await send(app, 'POST', '/auth/browser/sign-out', { headers: { cookie: jar.cookie, ...SAME_ORIGIN } });
    expect(res.status).toBe(403);
    expect((await send(app, 'GET', '/me', { headers: { cookie: jar.cookie } })).status).toBe(200);
  });

  it('without a session cookie only deletes the cookies (204)', async () => {
    const { app } = await browserTestApp();
    const res = await send(app, 'POST', '/auth/browser/sign-out', { headers: { ...SAME_ORIGIN } });
    expect(res.status).toBe(204);
    expect(res.headers.getSetCookie()).toHaveLength(3);
  });
});
