// Security events of the outside sign-in (ASVS 16.3.1), against a real provider (oidc-provider on
// loopback): a sign-in that reached an account, each kind of refusal, identities linked and
// unlinked; one JSON line each, with the provider's name and the local account, never a code,
// state, token or the provider's subject.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAtProvider, startOidcProvider, type TestOidcProvider } from './oidc-provider.test-helper.js';
import { APP_ORIGIN, BOB, CAROL, outsideTestApp, type OutsideTestApp } from './outside-sign-in.test-helper.js';
import type { OidcProviderOptions } from './outside-provider-options.js';

let op: TestOidcProvider;
/** Re-signs the ID token of the next token answers with a key the provider never published. */
let forge = false;

const forgingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (!url.endsWith('/token') || !forge) return response;
  const body = (await response.json()) as Record<string, unknown>;
  body.id_token = await op.forge(body.id_token as string);
  return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
};

beforeAll(async () => {
  op = await startOidcProvider({
    redirectUris: [`${APP_ORIGIN}/auth/oidc/oidc/callback`],
    accounts: [
      { sub: 'op-bob', email: BOB.identifier, email_verified: true },
      { sub: 'op-mallory', email: BOB.identifier, email_verified: false },
      { sub: 'op-dora', email: 'dora@elsewhere.test', email_verified: true },
    ],
  });
});
afterAll(async () => {
  await op.close();
});

function oidc(extra: Partial<OidcProviderOptions> = {}): OidcProviderOptions {
  return { name: 'oidc', issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret, linkVerifiedEmail: true, fetch: forgingFetch, ...extra };
}

/** The redirect back from the provider after signing in as `sub` there (not followed yet). */
async function backFromProvider(t: OutsideTestApp, sub: string, start = '/auth/oidc/oidc', headers: Record<string, string> = {}) {
  const started = await t.browser(start === '/auth/oidc/oidc' ? 'GET' : 'POST', start, { headers });
  expect(started.status, 'the start did not redirect to the provider').toBe(303);
  op.loginAs(sub);
  const back = await signInAtProvider(started.headers.get('location') as string, APP_ORIGIN);
  if (back.kind !== 'redirect') throw new Error('expected a redirect back');
  return back.url;
}

const summary = (events: Record<string, unknown>[]) => events.map(({ event, provider, subject, reason }) => ({ event, provider, subject, reason }));

/** No secret of the flow in any log line: the code, the state, the provider's subject. */
function expectNoSecrets(t: OutsideTestApp, url: URL, providerSubject: string): void {
  const log = t.logLines.join('\n');
  expect(log.includes(url.searchParams.get('code') as string), 'the authorization code is in the log').toBe(false);
  expect(log.includes(url.searchParams.get('state') as string), 'the state is in the log').toBe(false);
  expect(log.includes(providerSubject), 'the provider\'s subject is in the log').toBe(false);
  expect(log, 'a token is in the log').not.toMatch(/eyJ[A-Za-z0-9_-]{10,}/);
}

describe('outside sign-in: security events', () => {
  it('a sign-in linked by verified e-mail: identity.linked, outside-sign-in.succeeded, then the session\'s sign-in.succeeded', async () => {
    const t = await outsideTestApp(oidc());
    const url = await backFromProvider(t, 'op-bob');
    expect((await t.browser('GET', url.pathname + url.search)).status).toBe(200);
    expect(summary(t.securityEvents())).toEqual([
      { event: 'auth.identity.linked', provider: 'oidc', subject: BOB.subject, reason: undefined },
      { event: 'auth.outside-sign-in.succeeded', provider: 'oidc', subject: BOB.subject, reason: undefined },
      { event: 'auth.sign-in.succeeded', provider: undefined, subject: BOB.subject, reason: undefined },
    ]);
    expectNoSecrets(t, url, 'op-bob');
  });

  it('no account for the identity (an unverified e-mail): outside-sign-in.failed, reason no-account, a warning', async () => {
    const t = await outsideTestApp(oidc());
    const url = await backFromProvider(t, 'op-mallory');
    expect((await t.browser('GET', url.pathname + url.search)).status).toBe(403);
    const events = t.securityEvents();
    expect(summary(events)).toEqual([{ event: 'auth.outside-sign-in.failed', provider: 'oidc', subject: undefined, reason: 'no-account' }]);
    expect(events[0]?.level).toBe('warn');
    expectNoSecrets(t, url, 'op-mallory');
  });

  it('a forged ID token: outside-sign-in.failed, reason provider-answer', async () => {
    const t = await outsideTestApp(oidc());
    const url = await backFromProvider(t, 'op-bob');
    forge = true;
    try {
      expect((await t.browser('GET', url.pathname + url.search)).status).toBe(401);
    } finally {
      forge = false;
    }
    expect(summary(t.securityEvents())).toEqual([{ event: 'auth.outside-sign-in.failed', provider: 'oidc', subject: undefined, reason: 'provider-answer' }]);
    expectNoSecrets(t, url, 'op-bob');
  });

  it('a replayed callback: outside-sign-in.failed, reason flow-refused', async () => {
    const t = await outsideTestApp(oidc());
    const url = await backFromProvider(t, 'op-bob');
    expect((await t.browser('GET', url.pathname + url.search)).status).toBe(200);
    expect((await t.browser('GET', url.pathname + url.search)).status).toBe(400);
    expect(summary(t.securityEvents()).at(-1)).toEqual({ event: 'auth.outside-sign-in.failed', provider: 'oidc', subject: undefined, reason: 'flow-refused' });
  });

  it('linking while signed in, then unlinking: identity.linked and identity.unlinked for the account', async () => {
    const t = await outsideTestApp(oidc({ linkVerifiedEmail: false }));
    const signIn = await t.browser('POST', '/test/sign-in', { body: JSON.stringify({ identifier: CAROL.identifier, password: CAROL.password }), headers: { 'content-type': 'application/json' } });
    const carol = { authorization: `Bearer ${((await signIn.json()) as { accessToken: string }).accessToken}` };
    const url = await backFromProvider(t, 'op-dora', '/auth/oidc/oidc/link', carol);
    expect((await t.browser('GET', url.pathname + url.search)).status).toBe(200);
    expect((await t.browser('DELETE', '/auth/identities/oidc', { headers: carol })).status).toBe(204);
    expect(summary(t.securityEvents()).filter((event) => event.event !== 'auth.sign-in.succeeded')).toEqual([
      { event: 'auth.identity.linked', provider: 'oidc', subject: CAROL.subject, reason: undefined },
      { event: 'auth.identity.unlinked', provider: 'oidc', subject: CAROL.subject, reason: undefined },
    ]);
    expectNoSecrets(t, url, 'op-dora');
  });
});
