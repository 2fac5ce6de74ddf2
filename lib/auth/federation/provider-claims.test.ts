// What the app can read of how the provider authenticated the person (ASVS 5.0 6.8.4): the
// validated ID token's `acr`, `amr` and `auth_time` reach the profile an app's `accounts.create`
// (or its own rule) receives, so the app can require a level before it makes an account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAtProvider, startOidcProvider, type TestOidcProvider } from './oidc-provider.test-helper.js';
import { APP_ORIGIN, CAROL, outsideTestApp } from './outside-sign-in.test-helper.js';
import type { OutsideProfile } from './outside-provider-options.js';

const CALLBACK = `${APP_ORIGIN}/auth/oidc/oidc/callback`;
let op: TestOidcProvider;
const AUTHENTICATED_AT = Math.floor(Date.now() / 1000) - 60;

/** The provider's token answers, with the ID token re-signed by the provider carrying how it authenticated the person. */
const strengthFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (!url.endsWith('/token')) return response;
  const body = (await response.json()) as Record<string, unknown>;
  body.id_token = await op.resign(body.id_token as string, (claims) => ({ ...claims, acr: 'urn:example:mfa', amr: ['pwd', 'otp'], auth_time: AUTHENTICATED_AT }));
  return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
};

beforeAll(async () => {
  op = await startOidcProvider({ redirectUris: [CALLBACK], accounts: [{ sub: 'op-erin', email: 'erin@elsewhere.test', email_verified: true }] });
});
afterAll(async () => {
  await op.close();
});

describe('the provider\'s authentication strength on the profile (ASVS 6.8.4)', () => {
  it('hands acr, amr and auth_time of the validated ID token to accounts.create', async () => {
    const seen: OutsideProfile[] = [];
    const t = await outsideTestApp(
      { name: 'oidc', issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret, fetch: strengthFetch },
      { outside: { accounts: { canUsePassword: () => true, create: (profile) => (seen.push(profile), CAROL.subject) } } },
    );
    const start = await t.browser('GET', '/auth/oidc/oidc');
    op.loginAs('op-erin');
    const back = await signInAtProvider(start.headers.get('location') as string, APP_ORIGIN);
    if (back.kind !== 'redirect') throw new Error('expected a redirect back');
    const done = await t.browser('GET', back.url.pathname + back.url.search);
    expect(done.status, await done.clone().text()).toBe(200);
    expect(seen, 'accounts.create was not asked for the new person').toHaveLength(1);
    expect(seen[0]?.claims, 'the ID token\'s authentication claims are not on the profile').toMatchObject({
      iss: op.issuer,
      sub: 'op-erin',
      acr: 'urn:example:mfa',
      amr: ['pwd', 'otp'],
      auth_time: AUTHENTICATED_AT,
    });
  });
});
