// Browser sessions obey the absolute session lifetime (issuing.sessionMaxAge): the cookies end with
// the session, a refresh never extends it, and no access token outlives it.
import { describe, expect, it } from 'vitest';
import { send } from '../../../../test/http-helpers.js';
import { NOW, SAME_ORIGIN, browserSignIn, browserTestApp, jarOf, setCookies } from './browser-test-app.test-helper.js';

const DAY_MS = 86_400_000;
const maxAgeOf = (header: string | undefined) => Number(/Max-Age=(\d+)/i.exec(header ?? '')?.[1]);
const expOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()) as { exp: number }).exp;

describe('browser sessions and the absolute session lifetime', () => {
  it('the refresh cookie of a refresh lives only until the session ends, not a full idle lifetime', async () => {
    const { app, clock } = await browserTestApp({}, {}, undefined, { sessionMaxAge: 2 * 86_400 });
    const jar = await browserSignIn(app);
    clock.advance(DAY_MS);
    const res = await send(app, 'POST', '/auth/browser/refresh', { headers: { cookie: jar.cookie, 'x-csrf-token': jar.csrf, ...SAME_ORIGIN } });
    expect(res.status, res.text).toBe(200);
    expect(maxAgeOf(setCookies(res.headers).get('__Host-tessera-refresh')?.header), 'one day left of two').toBe(86_400);
  });

  it('a browser refresh at the bound is refused', async () => {
    const { app, clock } = await browserTestApp({}, {}, undefined, { sessionMaxAge: 2 * 86_400 });
    let jar = await browserSignIn(app);
    clock.advance(DAY_MS);
    const first = await send(app, 'POST', '/auth/browser/refresh', { headers: { cookie: jar.cookie, 'x-csrf-token': jar.csrf, ...SAME_ORIGIN } });
    jar = jarOf(first.headers);
    clock.advance(DAY_MS);
    const res = await send(app, 'POST', '/auth/browser/refresh', { headers: { cookie: jar.cookie, 'x-csrf-token': jar.csrf, ...SAME_ORIGIN } });
    expect(res.status, 'refused at two days').toBe(401);
  });

  it('an access token issued near the bound expires with the session', async () => {
    // A 10-minute session: its 15-minute access token is cut to 10 minutes.
    const { app } = await browserTestApp({}, {}, undefined, { sessionMaxAge: 600 });
    const jar = await browserSignIn(app);
    expect(expOf(jar.access), 'exp at the session end').toBe(Math.floor(NOW / 1000) + 600);
  });
});
