// Mix-up between providers (ASVS 5.0 10.2.2): each provider has its own callback, and a flow is
// bound to the provider it started with, so an authorization answer brought to another provider's
// callback (an attacker's provider relaying an honest provider's code, or the reverse) is refused
// before any code is exchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAtProvider, startOidcProvider, type TestOidcProvider } from './oidc-provider.test-helper.js';
import { APP_ORIGIN, BOB, outsideTestApp } from './outside-sign-in.test-helper.js';
import type { OidcProviderOptions } from './outside-provider-options.js';

/** The provider the person signs in with, and another the app also trusts (two issuers). */
let op: TestOidcProvider;
let other: TestOidcProvider;
let tokenRequests = 0;

/** Counts the token requests the app makes: a refused callback must make none. */
const countingFetch: typeof fetch = async (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (url.endsWith('/token')) tokenRequests++;
  return fetch(input, init);
};

beforeAll(async () => {
  const accounts = [{ sub: 'op-fay', email: 'fay@elsewhere.test', email_verified: true }];
  op = await startOidcProvider({ redirectUris: [`${APP_ORIGIN}/auth/oidc/honest/callback`], accounts });
  other = await startOidcProvider({ redirectUris: [`${APP_ORIGIN}/auth/oidc/other/callback`], accounts });
});
afterAll(async () => {
  await op.close();
  await other.close();
});

function provider(name: 'honest' | 'other'): OidcProviderOptions {
  const at = name === 'honest' ? op : other;
  return { name, issuer: at.issuer, clientId: at.clientId, clientSecret: at.clientSecret, fetch: countingFetch };
}

describe('mix-up between providers (ASVS 10.2.2)', () => {
  it('refuses an answer brought to another provider\'s callback (400), before any token request', async () => {
    const t = await outsideTestApp(provider('honest'), {
      outside: { providers: [provider('honest'), provider('other')], accounts: { canUsePassword: () => true, create: () => BOB.subject } },
    });
    const start = await t.browser('GET', '/auth/oidc/honest');
    expect(start.status).toBe(303);
    op.loginAs('op-fay');
    const back = await signInAtProvider(start.headers.get('location') as string, APP_ORIGIN);
    if (back.kind !== 'redirect') throw new Error('expected a redirect back');
    expect(back.url.pathname, 'the provider answered to its own callback').toBe('/auth/oidc/honest/callback');
    tokenRequests = 0;
    const mixed = await t.browser('GET', `/auth/oidc/other/callback${back.url.search}`);
    expect(mixed.status, 'the honest provider\'s answer was taken at the other provider\'s callback').toBe(400);
    expect(tokenRequests, 'a code was exchanged for a callback that was refused').toBe(0);
    expect((await t.browser('GET', '/me')).status, 'a session started anyway').toBe(401);
  });

  it('completes the same flow at its own callback (so the refusal above is the binding\'s doing)', async () => {
    const t = await outsideTestApp(provider('honest'), {
      outside: { providers: [provider('honest'), provider('other')], accounts: { canUsePassword: () => true, create: () => BOB.subject } },
    });
    const start = await t.browser('GET', '/auth/oidc/honest');
    op.loginAs('op-fay');
    const back = await signInAtProvider(start.headers.get('location') as string, APP_ORIGIN);
    if (back.kind !== 'redirect') throw new Error('expected a redirect back');
    const done = await t.browser('GET', back.url.pathname + back.url.search);
    expect(done.status, await done.clone().text()).toBe(200);
  });
});
