import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signInAtProvider, startOidcProvider, type TestOidcProvider } from './oidc-provider.test-helper.js';
import { REAUTHENTICATION_REQUIRED_TYPE } from '../sessions/state/recent-auth.js';
import { APP_ORIGIN, BOB, CAROL, FLOW_BINDING_COOKIE, outsideTestApp, type OutsideTestApp } from './outside-sign-in.test-helper.js';
import type { OAuthProviderOptions, OidcProviderOptions } from './outside-provider-options.js';

const CALLBACK = `${APP_ORIGIN}/auth/oidc/oidc/callback`;
let op: TestOidcProvider;
/** Changes the ID token of the next token answers, re-signed with the provider's key (a token made for another client, issuer or flow). */
let tamper: ((claims: Record<string, unknown>) => Record<string, unknown>) | undefined;
/** Replaces the access token of the next token answers (its at_hash then no longer matches). */
let swapAccessToken = false;
/** Re-signs the ID token of the next token answers with a key the provider never published. */
let forge = false;

const tamperingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (!url.endsWith('/token') || (tamper === undefined && !swapAccessToken && !forge)) return response;
  const body = (await response.json()) as Record<string, unknown>;
  if (tamper !== undefined) body.id_token = await op.resign(body.id_token as string, tamper);
  if (forge) body.id_token = await op.forge(body.id_token as string);
  if (swapAccessToken) body.access_token = 'an-access-token-the-id-token-was-not-made-for';
  return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
};

beforeAll(async () => {
  op = await startOidcProvider({
    redirectUris: [CALLBACK],
    accounts: [
      { sub: 'op-bob', email: BOB.identifier, email_verified: true, name: 'Bob' },
      { sub: 'op-mallory', email: BOB.identifier, email_verified: false, name: 'Mallory' },
      { sub: 'op-dora', email: 'dora@elsewhere.test', email_verified: true },
    ],
  });
});
afterAll(async () => {
  await op.close();
});

function oidc(extra: Partial<OidcProviderOptions> = {}): OidcProviderOptions {
  return { name: 'oidc', issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret, linkVerifiedEmail: true, fetch: tamperingFetch, ...extra };
}

/** Starts a sign-in in the app's browser and signs in at the provider as `sub`; answers where the provider sent the browser back. */
async function toProvider(t: OutsideTestApp, sub: string) {
  const start = await t.browser('GET', '/auth/oidc/oidc');
  expect(start.status, 'the start did not redirect to the provider').toBe(303);
  op.loginAs(sub);
  return signInAtProvider(start.headers.get('location') as string, APP_ORIGIN);
}

/** The provider's redirect back, followed in the app's browser. */
async function callback(t: OutsideTestApp, sub: string) {
  const back = await toProvider(t, sub);
  if (back.kind !== 'redirect') throw new Error('expected a redirect back');
  return { response: await t.browser('GET', back.url.pathname + back.url.search), url: back.url };
}

describe('outside sign-in (OIDC, oidc-provider on loopback)', () => {
  it('redirects to the provider with the code flow, PKCE S256, state and nonce', async () => {
    const t = await outsideTestApp(oidc());
    const start = await t.browser('GET', '/auth/oidc/oidc');
    const location = new URL(start.headers.get('location') as string);
    expect(location.origin).toBe(op.issuer);
    expect(location.searchParams.get('response_type')).toBe('code');
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(start.headers.getSetCookie().join('\n'), 'no browser-binding cookie').toMatch(/__Host-tessera-oidc=[^;]+;.*HttpOnly.*SameSite=None|__Host-tessera-oidc=[^;]+;.*SameSite=None.*HttpOnly/i);
  });

  it('refuses a returnTo that leaves the app, and goes home instead', async () => {
    const t = await outsideTestApp(oidc());
    const start = await t.browser('GET', '/auth/oidc/oidc?returnTo=//evil.example/x');
    op.loginAs('op-bob');
    const back = await signInAtProvider(start.headers.get('location') as string, APP_ORIGIN);
    if (back.kind !== 'redirect') throw new Error('expected a redirect');
    const done = await t.browser('GET', back.url.pathname + back.url.search);
    expect(await done.text()).toContain('content="0;url=/"');
  });

  it('ends in a session of the app: a verified e-mail links to the local account where the provider allows it', async () => {
    const t = await outsideTestApp(oidc());
    const { response } = await callback(t, 'op-bob');
    expect(response.status, await response.clone().text()).toBe(200);
    // A page of this site moves on to returnTo: a 303 would keep the provider's cross-site
    // navigation, on which the browser does not send the SameSite=Strict session cookies.
    expect(await response.clone().text()).toContain('<meta http-equiv="refresh" content="0;url=/">');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const me = await t.browser('GET', '/me');
    expect(me.status, 'the session cookies do not authenticate').toBe(200);
    expect(await me.json()).toEqual({ sub: BOB.subject });
    expect(await t.identities.find(op.issuer, 'op-bob'), 'the link was not stored under (issuer, subject)').toMatchObject({ accountId: BOB.subject, provider: 'oidc' });
  });

  it('signs a linked identity in again by its link alone', async () => {
    const t = await outsideTestApp(oidc({ linkVerifiedEmail: false }));
    await t.identities.link({ issuer: op.issuer, subject: 'op-dora', accountId: BOB.subject, provider: 'oidc', linkedAt: new Date() });
    const { response } = await callback(t, 'op-dora');
    expect(response.status).toBe(200);
    expect(await (await t.browser('GET', '/me')).json()).toEqual({ sub: BOB.subject });
  });

  it('never links an unverified e-mail, even where the provider may link by e-mail (403, no link)', async () => {
    const t = await outsideTestApp(oidc());
    const { response } = await callback(t, 'op-mallory');
    expect(response.status, 'an unverified e-mail signed in to the local account').toBe(403);
    expect(await t.identities.find(op.issuer, 'op-mallory')).toBeUndefined();
  });

  it('does not link a verified e-mail unless the provider is configured to (default off)', async () => {
    const t = await outsideTestApp(oidc({ linkVerifiedEmail: undefined }));
    const { response } = await callback(t, 'op-bob');
    expect(response.status).toBe(403);
    expect((await response.json()) as { detail?: string; title?: string }).toBeDefined();
  });

  it('refuses a callback with another state (400), and the right one still works once', async () => {
    const t = await outsideTestApp(oidc());
    const back = await toProvider(t, 'op-bob');
    if (back.kind !== 'redirect') throw new Error('expected a redirect');
    const forged = new URL(back.url);
    forged.searchParams.set('state', 'A'.repeat(43));
    expect((await t.browser('GET', forged.pathname + forged.search)).status, 'a forged state was accepted').toBe(400);
    expect((await t.browser('GET', back.url.pathname + back.url.search)).status).toBe(200);
  });

  it('refuses a replayed callback: the flow is single-use (400)', async () => {
    const t = await outsideTestApp(oidc());
    const { response, url } = await callback(t, 'op-bob');
    expect(response.status).toBe(200);
    const replay = await t.browser('GET', url.pathname + url.search);
    expect(replay.status, 'the replayed code and state signed in again').toBe(400);
  });

  it('refuses a callback in another browser than the one that started the flow (login CSRF, 400)', async () => {
    const t = await outsideTestApp(oidc());
    const back = await toProvider(t, 'op-bob');
    if (back.kind !== 'redirect') throw new Error('expected a redirect');
    t.cookies.delete(FLOW_BINDING_COOKIE);
    const victim = await t.browser('GET', back.url.pathname + back.url.search);
    expect(victim.status, 'a callback without the starting browser\'s binding signed in').toBe(400);
  });

  it('accepts the tampering harness\'s re-signed but unchanged ID token (so the refusals below are the checks\' doing)', async () => {
    const t = await outsideTestApp(oidc());
    tamper = (claims) => claims;
    try {
      expect((await callback(t, 'op-bob')).response.status).toBe(200);
    } finally {
      tamper = undefined;
    }
  });

  it('refuses an ID token with another nonce (401)', async () => {
    const t = await outsideTestApp(oidc());
    tamper = (claims) => ({ ...claims, nonce: 'another-flows-nonce' });
    try {
      expect((await callback(t, 'op-bob')).response.status).toBe(401);
    } finally {
      tamper = undefined;
    }
  });

  it('refuses an ID token for another audience (401)', async () => {
    const t = await outsideTestApp(oidc());
    tamper = (claims) => ({ ...claims, aud: 'another-client' });
    try {
      expect((await callback(t, 'op-bob')).response.status).toBe(401);
    } finally {
      tamper = undefined;
    }
  });

  it('refuses an ID token of another issuer (401)', async () => {
    const t = await outsideTestApp(oidc());
    tamper = (claims) => ({ ...claims, iss: 'https://evil.example' });
    try {
      expect((await callback(t, 'op-bob')).response.status).toBe(401);
    } finally {
      tamper = undefined;
    }
  });

  it('refuses an expired ID token (401)', async () => {
    const t = await outsideTestApp(oidc());
    const now = Math.floor(Date.now() / 1000);
    tamper = (claims) => ({ ...claims, iat: now - 3600, exp: now - 600 });
    try {
      expect((await callback(t, 'op-bob')).response.status).toBe(401);
    } finally {
      tamper = undefined;
    }
  });

  it('refuses an ID token whose at_hash does not match the access token (401)', async () => {
    const t = await outsideTestApp(oidc());
    // oidc-provider puts at_hash in the token endpoint's ID token; the answer's access token is swapped.
    swapAccessToken = true;
    tamper = (claims) => ({ ...claims, at_hash: claims.at_hash ?? 'AAAAAAAAAAAAAAAAAAAAAA' });
    try {
      expect((await callback(t, 'op-bob')).response.status).toBe(401);
    } finally {
      swapAccessToken = false;
      tamper = undefined;
    }
  });

  // ASVS 6.8.2: the claims are all right (the provider made them for this flow); only the
  // signature is not the provider's. Without the JWKS check this signs Bob in.
  it('refuses an ID token re-signed by a key the provider never published (401, no session)', async () => {
    const t = await outsideTestApp(oidc());
    forge = true;
    try {
      const { response } = await callback(t, 'op-bob');
      expect(response.status, 'a forged ID token signed the person in').toBe(401);
      expect(((await response.json()) as { detail: string }).detail).toBe('Sign-in with the provider failed');
      expect(response.headers.getSetCookie().some((line) => line.startsWith('__Host-tessera-session') || /refresh/i.test(line.split('=')[0] ?? '')), 'session cookies were set').toBe(false);
      expect((await t.browser('GET', '/me')).status, 'the browser is signed in').toBe(401);
    } finally {
      forge = false;
    }
  });

  it('refuses a provider whose discovery names another issuer (503, nothing stored)', async () => {
    const other = op.issuer.replace('127.0.0.1', 'localhost');
    const t = await outsideTestApp(oidc({ issuer: other }));
    const start = await t.browser('GET', '/auth/oidc/oidc');
    expect(start.status).toBe(503);
  });

  it('answers 503 with a clear problem within the bounded wait when the provider is down', async () => {
    const closed: Server = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const t = await outsideTestApp(oidc({ issuer: `http://127.0.0.1:${port}` }));
    const start = await t.browser('GET', '/auth/oidc/oidc');
    expect(start.status).toBe(503);
    expect(start.headers.get('content-type')).toMatch(/problem\+json/);
    expect(((await start.json()) as { detail?: string; title?: string }).detail ?? '').toMatch(/provider did not answer/);
  });

  it('gives up on a provider that accepts but never answers after timeoutMs (503)', async () => {
    const silent: Server = createServer(() => {
      /* never answers */
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const t = await outsideTestApp(oidc({ issuer: `http://127.0.0.1:${(silent.address() as AddressInfo).port}` }), { outside: { timeoutMs: 300 } });
      const began = performance.now();
      const start = await t.browser('GET', '/auth/oidc/oidc');
      const waited = performance.now() - began;
      expect(start.status).toBe(503);
      expect(waited, `waited ${Math.round(waited)} ms`).toBeLessThan(2000);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('completes a form_post callback (a cross-site POST, state kept on the server)', async () => {
    const t = await outsideTestApp(oidc({ responseMode: 'form_post' }));
    const back = await toProvider(t, 'op-bob');
    if (back.kind !== 'form_post') throw new Error(`expected a form_post, got ${back.kind}`);
    expect(back.action).toBe(CALLBACK);
    const response = await t.browser('POST', new URL(back.action).pathname, { body: back.fields.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', origin: op.issuer, 'sec-fetch-site': 'cross-site' } });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await (await t.browser('GET', '/me')).json()).toEqual({ sub: BOB.subject });
  });

  it('answers a JSON token pair (no-store) when the app has no browser sessions', async () => {
    const t = await outsideTestApp(oidc(), { browser: null });
    const { response } = await callback(t, 'op-bob');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const pair = (await response.json()) as { accessToken: string };
    const me = await t.app.fetch(new Request(`${APP_ORIGIN}/me`, { headers: { authorization: `Bearer ${pair.accessToken}` } }));
    expect(await me.json()).toEqual({ sub: BOB.subject });
  });

  it('answers 404 for a provider that is not configured', async () => {
    const t = await outsideTestApp(oidc());
    expect((await t.browser('GET', '/auth/oidc/github')).status).toBe(404);
  });
});

describe('linking and unlinking identities while signed in', () => {
  /** Past the module's recent-authentication window (`recentAuthSeconds`, 600), within the access token's life (900). */
  const STALE_MS = 601_000;

  async function signedIn(t: OutsideTestApp, who: { identifier: string; password: string }) {
    const response = await t.browser('POST', '/test/sign-in', { body: JSON.stringify({ identifier: who.identifier, password: who.password }), headers: { 'content-type': 'application/json' } });
    return { authorization: `Bearer ${((await response.json()) as { accessToken: string }).accessToken}` };
  }

  async function linkAs(t: OutsideTestApp, headers: Record<string, string>, sub: string) {
    const start = await t.browser('POST', '/auth/oidc/oidc/link?returnTo=/settings', { headers });
    if (start.status !== 303) return start;
    op.loginAs(sub);
    const back = await signInAtProvider(start.headers.get('location') as string, APP_ORIGIN);
    if (back.kind !== 'redirect') throw new Error('expected a redirect');
    return t.browser('GET', back.url.pathname + back.url.search);
  }

  it('links the provider identity to the signed-in account after a recent authentication', async () => {
    const t = await outsideTestApp(oidc({ linkVerifiedEmail: false }));
    const carol = await signedIn(t, CAROL);
    const done = await linkAs(t, carol, 'op-dora');
    expect(done.status, await done.clone().text()).toBe(200);
    expect(await done.text()).toContain('content="0;url=/settings"');
    expect((await t.identities.find(op.issuer, 'op-dora'))?.accountId).toBe(CAROL.subject);
    const listed = await t.browser('GET', '/auth/identities', { headers: carol });
    expect(((await listed.json()) as { provider: string }[]).map((identity) => identity.provider)).toEqual(['oidc']);
  });

  it('refuses to start linking when the sign-in is older than recentAuthSeconds (the reauthentication 401)', async () => {
    const t = await outsideTestApp(oidc());
    const carol = await signedIn(t, CAROL);
    t.clock.advance(STALE_MS);
    const start = await t.browser('POST', '/auth/oidc/oidc/link', { headers: carol });
    expect(start.status, 'a stale session started linking').toBe(401);
    expect(((await start.json()) as { type: string }).type).toBe(REAUTHENTICATION_REQUIRED_TYPE);
    expect(start.headers.get('www-authenticate')).toContain('max_age=600');
  });

  it('follows the module\'s recentAuthSeconds: a 60-second window refuses a sign-in 61 seconds old', async () => {
    const t = await outsideTestApp(oidc(), { recentAuthSeconds: 60 });
    const carol = await signedIn(t, CAROL);
    t.clock.advance(59_000);
    expect((await t.browser('POST', '/auth/oidc/oidc/link', { headers: carol })).status, 'a 59-second-old sign-in was refused').toBe(303);
    t.clock.advance(2_000);
    expect((await t.browser('POST', '/auth/oidc/oidc/link', { headers: carol })).status, 'a 61-second-old sign-in was accepted').toBe(401);
  });

  it('refuses linking without a session of the app (401)', async () => {
    const t = await outsideTestApp(oidc());
    expect((await t.browser('POST', '/auth/oidc/oidc/link')).status).toBe(401);
  });

  it('refuses to link an identity that is another account\'s (409), and leaves that link alone', async () => {
    const t = await outsideTestApp(oidc());
    await t.identities.link({ issuer: op.issuer, subject: 'op-dora', accountId: BOB.subject, provider: 'oidc', linkedAt: new Date() });
    const done = await linkAs(t, await signedIn(t, CAROL), 'op-dora');
    expect(done.status).toBe(409);
    expect((await t.identities.find(op.issuer, 'op-dora'))?.accountId).toBe(BOB.subject);
  });

  it('unlinks an identity of an account that can still use its password (204)', async () => {
    const t = await outsideTestApp(oidc());
    await t.identities.link({ issuer: op.issuer, subject: 'op-dora', accountId: CAROL.subject, provider: 'oidc', linkedAt: new Date() });
    const response = await t.browser('DELETE', '/auth/identities/oidc', { headers: await signedIn(t, CAROL) });
    expect(response.status).toBe(204);
    expect(await t.identities.find(op.issuer, 'op-dora')).toBeUndefined();
  });

  it('never removes the last way to sign in: an account without a password keeps its only identity (409)', async () => {
    const t = await outsideTestApp(oidc(), { passwordless: [CAROL.subject] });
    await t.identities.link({ issuer: op.issuer, subject: 'op-dora', accountId: CAROL.subject, provider: 'oidc', linkedAt: new Date() });
    const response = await t.browser('DELETE', '/auth/identities/oidc', { headers: await signedIn(t, CAROL) });
    expect(response.status, 'the last way to sign in was removed').toBe(409);
    expect((await t.identities.find(op.issuer, 'op-dora'))?.accountId).toBe(CAROL.subject);
  });

  it('refuses unlinking when the sign-in is older than recentAuthSeconds (the reauthentication 401), the link kept', async () => {
    const t = await outsideTestApp(oidc());
    await t.identities.link({ issuer: op.issuer, subject: 'op-dora', accountId: CAROL.subject, provider: 'oidc', linkedAt: new Date() });
    const carol = await signedIn(t, CAROL);
    t.clock.advance(STALE_MS);
    const response = await t.browser('DELETE', '/auth/identities/oidc', { headers: carol });
    expect(response.status, 'a stale session unlinked').toBe(401);
    expect(((await response.json()) as { type: string }).type).toBe(REAUTHENTICATION_REQUIRED_TYPE);
    expect(await t.identities.find(op.issuer, 'op-dora')).toBeDefined();
  });

});

describe('a plain OAuth 2.0 provider (GitHub style: no ID token, a profile callback)', () => {
  /** The profile callback: asks the provider who the access token belongs to, as GitHub's /user answers. */
  const profile: OAuthProviderOptions['profile'] = async ({ accessToken, fetch: fetchImpl, signal }) => {
    const response = await fetchImpl(`${op.issuer}/token/introspection`, {
      method: 'POST',
      signal,
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${btoa(`${op.clientId}:${op.clientSecret}`)}` },
      body: new URLSearchParams({ token: accessToken }).toString(),
    });
    const body = (await response.json()) as { active: boolean; sub?: string };
    if (!body.active || body.sub === undefined) throw new Error('the access token is not active');
    return { subject: body.sub, email: undefined, emailVerified: false, claims: body };
  };

  function github(): OAuthProviderOptions {
    return {
      kind: 'oauth2',
      name: 'oidc',
      issuer: op.issuer,
      clientId: op.clientId,
      clientSecret: op.clientSecret,
      authorizationEndpoint: `${op.issuer}/auth`,
      tokenEndpoint: `${op.issuer}/token`,
      scopes: ['read:user'],
      profile,
    };
  }

  it('signs a linked identity in through the profile callback, keyed by the configured issuer', async () => {
    const t = await outsideTestApp(github());
    await t.identities.link({ issuer: op.issuer, subject: 'op-dora', accountId: BOB.subject, provider: 'oidc', linkedAt: new Date() });
    const start = await t.browser('GET', '/auth/oidc/oidc');
    const location = new URL(start.headers.get('location') as string);
    expect(location.searchParams.get('nonce'), 'a plain OAuth 2.0 request carries no nonce').toBeNull();
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    op.loginAs('op-dora');
    const back = await signInAtProvider(location.href, APP_ORIGIN);
    if (back.kind !== 'redirect') throw new Error('expected a redirect');
    const done = await t.browser('GET', back.url.pathname + back.url.search);
    expect(done.status, `${await done.clone().text()} ${back.url.search}`).toBe(200);
    expect(await (await t.browser('GET', '/me')).json()).toEqual({ sub: BOB.subject });
  });

  it('does not take the same subject under another issuer for this provider\'s (403)', async () => {
    const t = await outsideTestApp(github());
    await t.identities.link({ issuer: 'https://other-provider.example', subject: 'op-dora', accountId: BOB.subject, provider: 'oidc', linkedAt: new Date() });
    const start = await t.browser('GET', '/auth/oidc/oidc');
    op.loginAs('op-dora');
    const back = await signInAtProvider(start.headers.get('location') as string, APP_ORIGIN);
    if (back.kind !== 'redirect') throw new Error('expected a redirect');
    expect((await t.browser('GET', back.url.pathname + back.url.search)).status).toBe(403);
  });
});
