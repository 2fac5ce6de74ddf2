// Recent authentication (ASVS 5.0 7.5.2): listing and ending sessions and changing the password
// or address need a sign-in of the last `recentAuthSeconds` (600 by default); a refresh does not
// renew it; the refusal is a 401 problem a client can recognise.
import { describe, expect, it } from 'vitest';
import { defineController, defineModule, createApp, post } from '../../index.js';
import { generateApiKey, InMemoryApiKeyStore, REAUTHENTICATION_REQUIRED_TYPE } from '../index.js';
import { ALICE, routesTestApp } from './auth-routes.test-helper.js';

const MINUTE = 60_000;
const bearer = (pair: { accessToken: string }) => ({ authorization: `Bearer ${pair.accessToken}` });

describe('recent authentication', () => {
  it('lists sessions within 10 minutes of the sign-in, and refuses after with the reauthentication problem', async () => {
    const { call, clock, signIn } = await routesTestApp();
    const pair = await signIn();
    clock.advance(10 * MINUTE);
    expect((await call('GET', '/auth/sessions', { headers: bearer(pair) })).status, 'at 10 minutes').toBe(200);
    clock.advance(1_000);
    const refused = await call('GET', '/auth/sessions', { headers: bearer(pair) });
    expect(refused.status).toBe(401);
    expect(refused.json, 'a problem the client can tell from an invalid token').toMatchObject({ type: REAUTHENTICATION_REQUIRED_TYPE, code: 'reauthentication_required', maxAgeSeconds: 600 });
    expect(refused.headers.get('www-authenticate'), 'the RFC 9470 challenge').toMatch(/^Bearer error="insufficient_user_authentication", .*max_age=600$/);
  });

  it('is not renewed by a refresh: the session keeps its sign-in time; a new sign-in passes', async () => {
    const { call, clock, signIn } = await routesTestApp();
    const first = await signIn();
    clock.advance(11 * MINUTE);
    const refreshed = (await call('POST', '/auth/refresh', { json: { refreshToken: first.refreshToken } })).json as { accessToken: string };
    expect((await call('GET', '/auth/sessions', { headers: bearer(refreshed) })).status, 'a refreshed token of an old sign-in').toBe(401);
    expect((await call('GET', '/auth/sessions', { headers: bearer(await signIn()) })).status, 'a fresh sign-in').toBe(200);
  });

  it('guards ending sessions and changing the password or address; a refused change changes nothing', async () => {
    const { call, clock, signIn } = await routesTestApp();
    const pair = await signIn();
    clock.advance(11 * MINUTE);
    const headers = bearer(pair);
    expect((await call('DELETE', '/auth/sessions', { headers })).status, 'sign out everywhere').toBe(401);
    expect((await call('DELETE', '/auth/sessions/others', { headers })).status, 'end the others').toBe(401);
    expect((await call('DELETE', '/auth/sessions/01900000-0000-7000-8000-000000000000', { headers })).status, 'end one').toBe(401);
    expect((await call('POST', '/auth/email/change', { headers, json: { currentPassword: ALICE.password, newEmail: 'other@acme.test' } })).status, 'e-mail change').toBe(401);
    const change = await call('POST', '/auth/password/change', { headers, json: { currentPassword: ALICE.password, newPassword: 'a-new-long-password-2' } });
    expect(change.status, 'password change').toBe(401);
    expect((await call('POST', '/auth/sign-in', { json: { identifier: ALICE.email, password: ALICE.password } })).status, 'the old password still works').toBe(200);
  });

  it('reads its freshness from recentAuthSeconds', async () => {
    const { call, clock, signIn } = await routesTestApp({ recentAuthSeconds: 60 });
    const pair = await signIn();
    clock.advance(61_000);
    const refused = await call('GET', '/auth/sessions', { headers: bearer(pair) });
    expect([refused.status, (refused.json as { maxAgeSeconds: number }).maxAgeSeconds]).toEqual([401, 60]);
  });

  it('refuses a recentAuthSeconds that is not a whole number of seconds of at least 1, at forRoot', async () => {
    await expect(routesTestApp({ recentAuthSeconds: 0 })).rejects.toThrow(RangeError);
    await expect(routesTestApp({ recentAuthSeconds: 1.5 })).rejects.toThrow(RangeError);
  });

  it('is a guard an app puts on its own routes: requireRecentAuth({ withinSeconds }), failing closed without an authenticated caller', async () => {
    const { clock, auth, signIn } = await routesTestApp();
    const pair = await signIn();
    const own = defineController({
      name: 'Own',
      routes: () => ({
        strict: post('/strict', { guards: [auth.JwtAuthGuard, auth.requireRecentAuth({ withinSeconds: 30 })] }, () => ({ ok: true })),
        unguarded: post('/unguarded', { guards: [auth.RecentAuthGuard] }, () => ({ ok: true })),
      }),
    });
    const imports = [auth.AuthModule.forRoot({ secret: 'a-test-secret-that-is-long-enough-for-hs256!', clock })];
    const app = await createApp(defineModule({ name: 'OwnRoutes', imports, controllers: [own] }));
    const at = (path: string) => app.request(path, { method: 'POST', headers: bearer(pair) });
    expect((await at('/strict')).status, 'within 30 s').toBe(200);
    clock.advance(31_000);
    expect((await at('/strict')).status, 'after 30 s').toBe(401);
    expect((await at('/unguarded')).status, 'no guard authenticated the caller: refused').toBe(401);
    expect(() => auth.requireRecentAuth({ withinSeconds: 0 })).toThrow(RangeError);
  });

  it('refuses an API key with 403: a machine never signed in', async () => {
    const { auth, clock } = await routesTestApp();
    const generated = generateApiKey();
    const keys = new InMemoryApiKeyStore([{ id: generated.id, secretHash: generated.secretHash, claims: { sub: 'key:ci', roles: [] }, scopes: [] }]);
    const Keys = defineModule({ name: 'Keys', providers: [{ provide: InMemoryApiKeyStore, useValue: keys }], exports: [InMemoryApiKeyStore] });
    const own = defineController({ name: 'Own', routes: () => ({ mint: post('/mint', { guards: [auth.AuthGuard, auth.RecentAuthGuard] }, () => ({ ok: true })) }) });
    const imports = [auth.AuthModule.forRoot({ secret: 'a-test-secret-that-is-long-enough-for-hs256!', clock, apiKeys: { store: { useExisting: InMemoryApiKeyStore }, imports: [Keys] } })];
    const app = await createApp(defineModule({ name: 'WithKeys', imports, controllers: [own] }));
    const answer = await app.request('/mint', { method: 'POST', headers: { 'x-api-key': generated.key } });
    expect(answer.status).toBe(403);
  });
});
