// ASVS 6.8.4: asking the provider for an authentication level, against a real provider
// (oidc-provider on loopback): `maxAge` (sends max_age, requires a recent enough auth_time) and
// `acrValues` (sends acr_values, the answered acr on the profile, `requireAcr` refusing others).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAtProvider, startOidcProvider, TEST_ACR_VALUES, type TestOidcProvider } from './oidc-provider.test-helper.js';
import { APP_ORIGIN, outsideTestApp, type OutsideTestApp } from './outside-sign-in.test-helper.js';
import type { OidcProviderOptions, OutsideProfile } from './outside-provider-options.js';
import { AuthConfigError } from '../shared/auth-config-error.js';

const [PASSWORD_ACR, MFA_ACR] = TEST_ACR_VALUES;
let op: TestOidcProvider;
/** Changes the ID token of the next token answers, re-signed with the provider's own key. */
let tamper: ((claims: Record<string, unknown>) => Record<string, unknown>) | undefined;

const tamperingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (!url.endsWith('/token') || tamper === undefined) return response;
  const body = (await response.json()) as Record<string, unknown>;
  body.id_token = await op.resign(body.id_token as string, tamper);
  return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
};

beforeAll(async () => {
  op = await startOidcProvider({
    redirectUris: [`${APP_ORIGIN}/auth/oidc/oidc/callback`],
    accounts: [{ sub: 'op-erin', email: 'erin@elsewhere.test', email_verified: true }],
  });
});
afterAll(async () => {
  await op.close();
});

/** An app whose accounts.create makes an account for anyone, recording the profile it was given. */
async function appWith(level: Partial<OidcProviderOptions>) {
  const profiles: OutsideProfile[] = [];
  const t = await outsideTestApp(
    { name: 'oidc', issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret, fetch: tamperingFetch, ...level },
    {
      outside: {
        accounts: {
          canUsePassword: () => true,
          create: (profile) => {
            profiles.push(profile);
            return 'u_bob';
          },
        },
      },
    },
  );
  return { t, profiles };
}

/** Starts at the app, signs in at the provider (with `acr` reported), and, after `beforeCallback`, follows the redirect back. */
async function signIn(t: OutsideTestApp, options: { readonly acr?: string; readonly beforeCallback?: () => void } = {}) {
  const start = await t.browser('GET', '/auth/oidc/oidc');
  expect(start.status, 'the start did not redirect to the provider').toBe(303);
  const authorize = new URL(start.headers.get('location') as string);
  op.loginAs('op-erin', options.acr === undefined ? {} : { acr: options.acr });
  const back = await signInAtProvider(authorize.href, APP_ORIGIN);
  if (back.kind !== 'redirect') throw new Error('expected a redirect back');
  options.beforeCallback?.();
  return { authorize, done: await t.browser('GET', back.url.pathname + back.url.search) };
}

describe('maxAge: a fresh authentication at the provider', () => {
  it('sends max_age and accepts an ID token whose auth_time is within it', async () => {
    const { t } = await appWith({ maxAge: 60 });
    const { authorize, done } = await signIn(t);
    expect(authorize.searchParams.get('max_age')).toBe('60');
    expect(done.status, await done.clone().text()).toBe(200);
  });

  it('refuses an authentication older than maxAge on the app\'s clock (401, no session)', async () => {
    const { t } = await appWith({ maxAge: 60 });
    const { done } = await signIn(t, { beforeCallback: () => t.clock.advance(120_000) });
    expect(done.status, 'an authentication two minutes old passed maxAge 60').toBe(401);
    expect((await t.browser('GET', '/me')).status).toBe(401);
  });

  it('control: without maxAge, the same two-minute wait signs in (so the refusal above is auth_time\'s)', async () => {
    const { t } = await appWith({});
    const { done } = await signIn(t, { beforeCallback: () => t.clock.advance(120_000) });
    expect(done.status, await done.clone().text()).toBe(200);
  });

  it('refuses an ID token without auth_time when max_age was sent (401)', async () => {
    const { t } = await appWith({ maxAge: 60 });
    tamper = ({ auth_time: _dropped, ...claims }) => claims;
    try {
      const { done } = await signIn(t);
      expect(done.status, 'an ID token without auth_time passed maxAge').toBe(401);
    } finally {
      tamper = undefined;
    }
  });

  it('sends no max_age without the option, and then needs no auth_time', async () => {
    const { t } = await appWith({});
    tamper = ({ auth_time: _dropped, ...claims }) => claims;
    try {
      const { authorize, done } = await signIn(t);
      expect(authorize.searchParams.has('max_age')).toBe(false);
      expect(done.status).toBe(200);
    } finally {
      tamper = undefined;
    }
  });
});

describe('acrValues: asking for an authentication class', () => {
  it('sends acr_values in order and puts the answered acr on the profile', async () => {
    const { t, profiles } = await appWith({ acrValues: [MFA_ACR, PASSWORD_ACR] });
    const { authorize, done } = await signIn(t, { acr: MFA_ACR });
    expect(authorize.searchParams.get('acr_values')).toBe(`${MFA_ACR} ${PASSWORD_ACR}`);
    expect(done.status, await done.clone().text()).toBe(200);
    expect(profiles[0]?.acr, 'the provider\'s acr is not on the profile').toBe(MFA_ACR);
  });

  it('without requireAcr, lets a lower class through (the app reads profile.acr)', async () => {
    const { t, profiles } = await appWith({ acrValues: [MFA_ACR] });
    const { done } = await signIn(t, { acr: PASSWORD_ACR });
    expect(done.status).toBe(200);
    expect(profiles[0]?.acr).toBe(PASSWORD_ACR);
  });

  it('with requireAcr, refuses an acr that is not one of acrValues (401, no account made)', async () => {
    const { t, profiles } = await appWith({ acrValues: [MFA_ACR], requireAcr: true });
    const { done } = await signIn(t, { acr: PASSWORD_ACR });
    expect(done.status, 'a password-only class passed requireAcr').toBe(401);
    expect(profiles, 'accounts.create saw a refused sign-in').toEqual([]);
  });

  it('with requireAcr, refuses an ID token with no acr (401)', async () => {
    const { t } = await appWith({ acrValues: [MFA_ACR], requireAcr: true });
    tamper = ({ acr: _dropped, ...claims }) => claims;
    try {
      const { done } = await signIn(t, { acr: MFA_ACR });
      expect(done.status, 'an ID token without acr passed requireAcr').toBe(401);
    } finally {
      tamper = undefined;
    }
  });

  it('with requireAcr, accepts one of acrValues', async () => {
    const { t, profiles } = await appWith({ acrValues: [MFA_ACR], requireAcr: true });
    const { done } = await signIn(t, { acr: MFA_ACR });
    expect(done.status, await done.clone().text()).toBe(200);
    expect(profiles[0]?.acr).toBe(MFA_ACR);
  });
});

describe('forRoot checks of maxAge and acrValues', () => {
  it.each([
    ['a negative maxAge', { maxAge: -1 }],
    ['a fractional maxAge', { maxAge: 1.5 }],
    ['an empty acrValues', { acrValues: [] }],
    ['an acr value with a space', { acrValues: ['two words'] }],
    ['requireAcr without acrValues', { requireAcr: true }],
  ])('refuses %s', async (_what, level) => {
    await expect(appWith(level as Partial<OidcProviderOptions>)).rejects.toThrow(AuthConfigError);
  });
});
