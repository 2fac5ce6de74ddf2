// The routes the auth module mounts (`routes` of forRoot): each group only when asked for, under
// its prefix, with its schemas, body limits, no-store token answers and OpenAPI description.
import { describe, expect, it } from 'vitest';
import { generateOpenApiDocument } from '../../openapi/index.js';
import { AuthConfigError } from '../index.js';
import { ALICE, routesTestApp } from './auth-routes.test-helper.js';

const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin', origin: 'https://localhost' };

describe('mounted auth routes', () => {
  it('mounts none without `routes`: the app writes its own', async () => {
    const { call } = await routesTestApp({ routes: undefined });
    expect((await call('POST', '/auth/sign-in', { json: { identifier: ALICE.email, password: ALICE.password } })).status).toBe(404);
  });

  it('json: signs in, refreshes and signs out, the token answers marked no-store', async () => {
    const { call } = await routesTestApp({ routes: { json: true } });
    const signIn = await call('POST', '/auth/sign-in', { json: { identifier: ALICE.email, password: ALICE.password } });
    expect(signIn.status).toBe(200);
    expect(signIn.headers.get('cache-control'), 'a token answer no cache may keep').toBe('no-store');
    const pair = signIn.json as { refreshToken: string; accessTokenExpiresAt: string };
    expect(pair.accessTokenExpiresAt).toBe('2026-11-27T12:15:00.000Z');
    const refreshed = await call('POST', '/auth/refresh', { json: { refreshToken: pair.refreshToken } });
    expect([refreshed.status, refreshed.headers.get('cache-control')]).toEqual([200, 'no-store']);
    const next = (refreshed.json as { refreshToken: string }).refreshToken;
    expect((await call('POST', '/auth/sign-out', { json: { refreshToken: next } })).status).toBe(204);
    expect((await call('POST', '/auth/refresh', { json: { refreshToken: next } })).status, 'the signed-out session').toBe(401);
  });

  it('mounts only the groups asked for', async () => {
    const { call } = await routesTestApp({ routes: { json: true } });
    expect((await call('POST', '/auth/sign-up', { json: { email: 'new@acme.test', password: 'a-long-password-1' } })).status, 'accounts off').toBe(404);
    expect((await call('POST', '/auth/browser/sign-in', { json: { identifier: ALICE.email, password: ALICE.password }, headers: SAME_ORIGIN })).status, 'browser off').toBe(404);
    expect((await call('GET', '/auth/sessions')).status, 'sessions off').toBe(404);
  });

  it('mounts under `prefix`', async () => {
    const { call } = await routesTestApp({ routes: { json: true, prefix: '/api/v1/auth/' } });
    expect((await call('POST', '/api/v1/auth/sign-in', { json: { identifier: ALICE.email, password: ALICE.password } })).status).toBe(200);
    expect((await call('POST', '/auth/sign-in', { json: { identifier: ALICE.email, password: ALICE.password } })).status).toBe(404);
  });

  it('browser: signs in with cookies and a CSRF token, never a token in the body', async () => {
    const { call } = await routesTestApp();
    const answer = await call('POST', '/auth/browser/sign-in', { json: { identifier: ALICE.email, password: ALICE.password }, headers: SAME_ORIGIN });
    expect(answer.status).toBe(200);
    expect(answer.headers.getSetCookie().some((cookie) => cookie.startsWith('__Host-tessera-access=')), 'the access-token cookie').toBe(true);
    expect(Object.keys(answer.json as object).sort()).toEqual(['accessTokenExpiresAt', 'csrfToken', 'refreshTokenExpiresAt']);
    const crossSite = await call('POST', '/auth/browser/sign-in', { json: { identifier: ALICE.email, password: ALICE.password }, headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status, 'another site').toBe(403);
  });

  it('accounts: sign-up answers 202 and mails a link; the verification route verifies it', async () => {
    const { call, mails, app, auth } = await routesTestApp();
    const answer = await call('POST', '/auth/sign-up', { json: { email: 'new@acme.test', password: 'a-long-password-1' } });
    expect(answer).toMatchObject({ status: 202, json: { message: 'If the address can receive it, a mail is on its way.' } });
    await app.get(auth.ACCOUNT_SERVICE).settled();
    const token = /token=([\w-]+)/.exec(mails[0]?.text ?? '')?.[1];
    expect(token, 'the verification link').toBeDefined();
    expect((await call('POST', '/auth/verify-email', { json: { token } })).status).toBe(204);
    expect((await call('POST', '/auth/sign-in', { json: { identifier: 'new@acme.test', password: 'a-long-password-1' } })).status, 'the verified account signs in').toBe(200);
  });

  it('sessions: lists them marking the current one, ends the others and keeps this one', async () => {
    const { call, signIn } = await routesTestApp();
    const laptop = await signIn('Laptop');
    const phone = await signIn('Phone');
    const bearer = { authorization: `Bearer ${phone.accessToken}` };
    const listed = (await call('GET', '/auth/sessions', { headers: bearer })).json as { userAgent: string; current: boolean }[];
    expect(listed.map((s) => [s.userAgent, s.current])).toEqual([['Laptop', false], ['Phone', true]]);
    expect((await call('DELETE', '/auth/sessions/others', { headers: bearer })).status).toBe(204);
    expect((await call('POST', '/auth/refresh', { json: { refreshToken: laptop.refreshToken } })).status, 'the other session ended').toBe(401);
    expect(((await call('GET', '/auth/sessions', { headers: bearer })).json as { userAgent: string }[]).map((s) => s.userAgent), 'this one kept').toEqual(['Phone']);
  });

  it('refuses a body over the route\u2019s small limit with 413, before parsing it', async () => {
    const { call } = await routesTestApp();
    const answer = await call('POST', '/auth/password/forgot', { json: { email: `${'a'.repeat(5_000)}@acme.test` } });
    expect(answer.status).toBe(413);
  });

  it('fails forRoot for a group whose feature is not configured, and for a bad prefix', async () => {
    await expect(routesTestApp({ browser: undefined, routes: { browser: true } })).rejects.toThrow(AuthConfigError);
    await expect(routesTestApp({ accounts: undefined, issuing: { credentialStore: class {} as never, refreshTokenStore: class {} as never }, routes: { accounts: true } })).rejects.toThrow(/routes.accounts needs the accounts option/);
    await expect(routesTestApp({ routes: { json: true, prefix: 'auth' } })).rejects.toThrow(/routes.prefix/);
  });

  it('describes itself in OpenAPI: summaries, the throttles\u2019 429, the person routes\u2019 schemes, public sign-in', async () => {
    const { app } = await routesTestApp({ routes: { json: true, accounts: true, sessions: true, personSchemes: ['bearer'] } });
    const doc = generateOpenApiDocument(app, { title: 'Routes', version: '1', securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } }, security: ['bearer', 'apiKey'] });
    const signUp = doc.paths['/auth/sign-up']?.post;
    expect(signUp?.summary).toMatch(/Sign up/);
    expect(Object.keys(signUp?.responses ?? {})).toEqual(expect.arrayContaining(['202', '400', '413', '429']));
    expect(signUp?.security, 'public').toEqual([]);
    expect(doc.paths['/auth/sessions']?.get?.security, 'a person only: never an API key').toEqual([{ bearer: [] }]);
    expect(doc.paths['/auth/sign-in']?.post?.operationId).toBe('AuthController_signIn');
  });
});
