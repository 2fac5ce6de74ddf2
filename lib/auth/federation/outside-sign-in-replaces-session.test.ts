// An outside sign-in from a browser that already holds a session ends that session (ASVS 5.0
// 7.2.4), as a password sign-in does: against a real provider (oidc-provider on loopback). The
// provider's redirect back is cross-site, so with SameSite=Strict cookies (the default) the browser
// sends no session cookie on it: the session is the one the browser held when the flow started.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAtProvider, startOidcProvider, type TestOidcProvider } from './oidc-provider.test-helper.js';
import { APP_ORIGIN, BOB, CAROL, outsideTestApp, type OutsideTestApp } from './outside-sign-in.test-helper.js';
import type { OidcProviderOptions } from './outside-provider-options.js';
import { sessionIdOfAccessToken } from '../sessions/browser/browser-credentials.js';

const ACCESS = '__Host-tessera-access';
const REFRESH = '__Host-tessera-refresh';
const CSRF = '__Host-tessera-csrf';
let op: TestOidcProvider;

beforeAll(async () => {
  op = await startOidcProvider({
    redirectUris: [`${APP_ORIGIN}/auth/oidc/oidc/callback`],
    accounts: [
      { sub: 'op-bob', email: BOB.identifier, email_verified: true },
      { sub: 'op-carol', email: CAROL.identifier, email_verified: true },
    ],
  });
});
afterAll(async () => {
  await op.close();
});

function oidc(): OidcProviderOptions {
  return { name: 'oidc', issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret, linkVerifiedEmail: true };
}

/** The session cookies the browser holds now (a copy). */
function sessionCookies(t: OutsideTestApp): { access: string; refresh: string } {
  const access = t.cookies.get(ACCESS);
  const refresh = t.cookies.get(REFRESH);
  if (access === undefined || refresh === undefined) throw new Error('the browser holds no session');
  return { access, refresh };
}

/** Whether the app takes an access cookie (GET /me behind AccountGuard). */
async function me(t: OutsideTestApp, access: string): Promise<number> {
  return (await t.app.fetch(new Request(`${APP_ORIGIN}/me`, { headers: { cookie: `${ACCESS}=${access}` } }))).status;
}

/**
 * A whole outside sign-in as `sub` in the test's browser. `start` / `back`: whether the start and
 * the callback carry the session cookies (a browser sends SameSite=Strict ones on the start, a
 * request of this site, and not on the provider's cross-site redirect back).
 */
async function outsideSignIn(t: OutsideTestApp, sub: string, carry: { readonly start: boolean; readonly back: boolean }): Promise<Response> {
  const held = new Map(t.cookies);
  const withoutSession = () => [ACCESS, REFRESH, CSRF].forEach((name) => t.cookies.delete(name));
  if (!carry.start) withoutSession();
  const started = await t.browser('GET', '/auth/oidc/oidc');
  expect(started.status, 'the start did not redirect to the provider').toBe(303);
  op.loginAs(sub);
  const back = await signInAtProvider(started.headers.get('location') as string, APP_ORIGIN);
  if (back.kind !== 'redirect') throw new Error('expected a redirect back');
  for (const name of [ACCESS, REFRESH, CSRF]) {
    const value = held.get(name);
    if (carry.back && value !== undefined) t.cookies.set(name, value);
  }
  if (!carry.back) withoutSession();
  return t.browser('GET', back.url.pathname + back.url.search);
}

const revocations = (t: OutsideTestApp) => t.securityEvents().filter((event) => event.event === 'auth.session.revoked').map(({ subject, sessionId, reason }) => ({ subject, sessionId, reason }));

describe('an outside sign-in from a browser that holds a session', () => {
  it('ends that session when the callback carries no session cookie (SameSite=Strict): its access cookie is refused', async () => {
    const t = await outsideTestApp(oidc());
    expect((await outsideSignIn(t, 'op-bob', { start: false, back: false })).status, 'the first sign-in').toBe(200);
    const old = sessionCookies(t);
    expect(await me(t, old.access), 'the first session, before').toBe(200);
    expect((await outsideSignIn(t, 'op-bob', { start: true, back: false })).status, 'the second sign-in').toBe(200);
    expect(await me(t, old.access), 'the session the browser held still works after an outside sign-in').toBe(401);
    expect(await me(t, sessionCookies(t).access), 'the new session').toBe(200);
  });

  it('records it as a password sign-in does: session.revoked, reason sign-out, with the ended session', async () => {
    const t = await outsideTestApp(oidc());
    await outsideSignIn(t, 'op-bob', { start: false, back: false });
    const old = sessionCookies(t);
    await outsideSignIn(t, 'op-bob', { start: true, back: false });
    expect(revocations(t), 'the security events').toEqual([{ subject: BOB.subject, sessionId: sessionIdOfAccessToken(old.access), reason: 'sign-out' }]);
  });

  it('ends the session of the cookies the callback carries too (SameSite=Lax, a GET redirect back)', async () => {
    const t = await outsideTestApp(oidc(), { browser: { sameSite: 'Lax' } });
    await outsideSignIn(t, 'op-bob', { start: false, back: false });
    const old = sessionCookies(t);
    expect((await outsideSignIn(t, 'op-bob', { start: false, back: true })).status).toBe(200);
    expect(await me(t, old.access), "the session of the callback's own cookies still works").toBe(401);
  });

  it("ends it when another account signs in on that browser, too; the first account's other devices keep theirs", async () => {
    const t = await outsideTestApp(oidc());
    await outsideSignIn(t, 'op-bob', { start: false, back: false });
    const phone = sessionCookies(t);
    await outsideSignIn(t, 'op-bob', { start: false, back: false });
    const shared = sessionCookies(t);
    await outsideSignIn(t, 'op-carol', { start: true, back: false });
    expect(await me(t, shared.access), "bob's session on the shared browser").toBe(401);
    expect(await me(t, phone.access), "bob's phone (another device)").toBe(200);
  });

  it('a refused callback ends nothing', async () => {
    const t = await outsideTestApp(oidc());
    await outsideSignIn(t, 'op-bob', { start: false, back: false });
    const old = sessionCookies(t);
    const started = await t.browser('GET', '/auth/oidc/oidc');
    op.loginAs('op-bob');
    const back = await signInAtProvider(started.headers.get('location') as string, APP_ORIGIN);
    if (back.kind !== 'redirect') throw new Error('expected a redirect back');
    const forged = new URL(back.url);
    forged.searchParams.set('state', 'A'.repeat(43));
    expect((await t.browser('GET', forged.pathname + forged.search)).status, 'a forged state').toBe(400);
    expect(await me(t, old.access), 'the session after a refused callback').toBe(200);
  });
});
