import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, createManualClock, jsonLogger, type App, type ManualClock } from '../../lib/index.js';
import { createRequestListener } from '../../lib/node.js';
import { readTenantsConfig } from '../../examples/tenants/config.js';
import { DEMO_PASSWORD } from '../../examples/tenants/demo-accounts.js';
import { createTenantsModule } from '../../examples/tenants/tenants-module.js';
import { CHROMIUM, hasChromium } from './cross-origin-blog.js';

// Passkeys of the tenants app in Debian's Chromium (playwright-core, headless) with a virtual
// authenticator from the DevTools WebAuthn domain (CTAP2, internal transport, resident keys,
// user verification): registration, passkey-only sign-in with a discoverable credential, the
// passkey as the second step of a password sign-in, a replayed assertion and a signature
// counter that went back. The page is served on http://localhost (a secure context, and a
// valid relying-party id), which is the app's APP_URL.

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

/**
 * Runs a WebAuthn ceremony in the page: fetches options from `optionsPath`, calls
 * navigator.credentials.create or .get with them, and answers the credential as JSON (toJSON).
 */
function ceremony(page: Page, kind: 'create' | 'get', optionsPath: string, accessToken?: string): Promise<Record<string, unknown>> {
  return page.evaluate(
    async ({ kind, optionsPath, accessToken }) => {
      const headers: Record<string, string> = {};
      if (accessToken !== undefined) headers.authorization = `Bearer ${accessToken}`;
      const optionsAnswer = await fetch(optionsPath, { method: 'POST', headers });
      if (!optionsAnswer.ok) throw new Error(`options answered ${optionsAnswer.status}: ${await optionsAnswer.text()}`);
      const options = await optionsAnswer.json();
      const credential =
        kind === 'create'
          ? await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) })
          : await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
      return (credential as PublicKeyCredential).toJSON() as Record<string, unknown>;
    },
    { kind, optionsPath, accessToken },
  );
}

/** A JSON POST from the page. */
function post(page: Page, path: string, json: unknown, accessToken?: string): Promise<Answer> {
  return page.evaluate(
    async ({ path, json, accessToken }) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (accessToken !== undefined) headers.authorization = `Bearer ${accessToken}`;
      const response = await fetch(path, { method: 'POST', headers, body: JSON.stringify(json) });
      const text = await response.text();
      return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
    },
    { path, json, accessToken },
  );
}

describe.skipIf(!hasChromium)('passkeys of the tenants app in headless Chromium with a virtual authenticator (needs Debian chromium)', () => {
  let app: App;
  let server: Server;
  let origin: string;
  let browser: Browser;
  let page: Page;
  let cdp: CDPSession;
  let authenticatorId: string;
  let clock: ManualClock;
  /** The app's log, for the security events. */
  const logLines: string[] = [];

  beforeAll(async () => {
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://localhost:${(server.address() as AddressInfo).port}`;
    const config = readTenantsConfig({ AUTH_SECRET: 'tenants-passkeys-secret-0123456789abcdef', APP_URL: origin }, () => undefined);
    clock = createManualClock(Date.now());
    app = await createApp(createTenantsModule(config, { clock }), { logger: jsonLogger({ write: (line) => logLines.push(line) }) });
    app.addRawRoute('GET', '/test-page', () => new Response('<!doctype html><title>passkeys</title>', { headers: { 'content-type': 'text/html; charset=utf-8' } }));
    server.on('request', createRequestListener(app));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    page = await (await browser.newContext()).newPage();
    await page.goto(`${origin}/test-page`);
    cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const added = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    authenticatorId = added.authenticatorId;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (server !== undefined) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await app?.close();
  });

  let credentialId: string;
  let registration: { response: Record<string, unknown>; accessToken: string };
  let recoveryCode: string;

  it('registers a passkey for a signed-in person: 201 with its id and, as the first factor, ten recovery codes', async () => {
    const signIn = await post(page, '/auth/sign-in', { identifier: 'alice@acme.test', password: DEMO_PASSWORD });
    expect(signIn.status).toBe(200);
    const { accessToken } = signIn.body as { accessToken: string };
    const response = await ceremony(page, 'create', '/auth/passkeys/registration-options', accessToken);
    const registered = await post(page, '/auth/passkeys', { response }, accessToken);
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const body = registered.body as { id: string; recoveryCodes: string[] };
    expect(body.id).toBe(response.id);
    expect(body.recoveryCodes).toHaveLength(10);
    credentialId = body.id;
    recoveryCode = body.recoveryCodes[0] as string;
    registration = { response, accessToken };
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials.map((c) => c.isResidentCredential), 'a discoverable credential').toEqual([true]);
  });

  it('a registration response sent again is refused (its challenge was used)', async () => {
    const again = await post(page, '/auth/passkeys', { response: registration.response }, registration.accessToken);
    expect(again.status).toBe(401);
    expect((again.body as { detail: string }).detail, 'refused as a factor, not for the session').toBe('Invalid second factor');
  });

  it('signs in with the passkey alone (no identifier): the session is alice’s', async () => {
    const response = await ceremony(page, 'get', '/auth/passkeys/authentication-options');
    expect(response.id).toBe(credentialId);
    const signedIn = await post(page, '/auth/passkeys/sign-in', { response });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    const me = await page.evaluate(async (token) => (await fetch('/me', { headers: { authorization: `Bearer ${token}` } })).json(), (signedIn.body as { accessToken: string }).accessToken);
    expect((me as { sub: string }).sub).toBe('alice');
  });

  it('an assertion sent twice is refused the second time (single-use challenge)', async () => {
    const response = await ceremony(page, 'get', '/auth/passkeys/authentication-options');
    expect((await post(page, '/auth/passkeys/sign-in', { response })).status).toBe(200);
    const replay = await post(page, '/auth/passkeys/sign-in', { response });
    expect(replay.status).toBe(401);
    expect((replay.body as { detail: string }).detail).toBe('Invalid second factor');
  });

  it('a password sign-in now asks for the second factor, and the passkey completes it', async () => {
    const first = await post(page, '/auth/sign-in', { identifier: 'alice@acme.test', password: DEMO_PASSWORD });
    expect(first.status).toBe(401);
    const { pendingToken, factors } = first.body as { pendingToken: string; factors: string[] };
    expect(factors).toContain('passkey');
    const passkey = await ceremony(page, 'get', '/auth/passkeys/authentication-options');
    const second = await post(page, '/auth/second-factor', { pendingToken, passkey });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect((second.body as { accessToken: string }).accessToken).toBeTypeOf('string');
  });

  /** A JSON request with a bearer token from the page. */
  function call(method: string, path: string, accessToken: string, json?: unknown): Promise<Answer> {
    return page.evaluate(
      async ({ method, path, accessToken, json }) => {
        const headers: Record<string, string> = { authorization: `Bearer ${accessToken}` };
        if (json !== undefined) headers['content-type'] = 'application/json';
        const response = await fetch(path, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
        const text = await response.text();
        return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
      },
      { method, path, accessToken, json },
    );
  }

  it('steps up with the passkey: API-key creation refused after 5 minutes, allowed after the step-up', async () => {
    const response = await ceremony(page, 'get', '/auth/passkeys/authentication-options');
    const { accessToken } = (await post(page, '/auth/passkeys/sign-in', { response })).body as { accessToken: string };
    clock.advance(6 * 60_000);
    const key = { name: 'ci', scopes: ['posts:read'] };
    const refused = await call('POST', '/tenants/acme/api-keys', accessToken, key);
    expect(refused.status).toBe(401);
    expect((refused.body as { type: string }).type).toBe('urn:tessera:auth:step-up-second-factor');
    const passkey = await ceremony(page, 'get', '/auth/factors/step-up/passkey-options', accessToken);
    expect((await call('POST', '/auth/factors/step-up', accessToken, { passkey })).status).toBe(204);
    expect((await call('POST', '/tenants/acme/api-keys', accessToken, key)).status, 'after the step-up').toBe(201);
  });

  it("a sign-in challenge cannot serve a step-up (the challenge names its purpose)", async () => {
    const response = await ceremony(page, 'get', '/auth/passkeys/authentication-options');
    const { accessToken } = (await post(page, '/auth/passkeys/sign-in', { response })).body as { accessToken: string };
    const passkey = await ceremony(page, 'get', '/auth/passkeys/authentication-options');
    expect((await call('POST', '/auth/factors/step-up', accessToken, { passkey })).status).toBe(401);
  });

  it('lists the passkey; removing an unknown id answers 404', async () => {
    const response = await ceremony(page, 'get', '/auth/passkeys/authentication-options');
    const { accessToken } = (await post(page, '/auth/passkeys/sign-in', { response })).body as { accessToken: string };
    const list = await call('GET', '/auth/passkeys', accessToken);
    expect((list.body as { id: string }[]).map((p) => p.id)).toEqual([credentialId]);
    expect((await call('DELETE', '/auth/passkeys/no-such-passkey', accessToken)).status).toBe(404);
  });

  it('refuses an authenticator whose signature counter went back (a cloned key)', async () => {
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    const credential = credentials[0]!;
    expect(credential.signCount, 'the counter moved with each use').toBeGreaterThan(2);
    // The same private key with its counter reset: what a copy of the key would present.
    await cdp.send('WebAuthn.removeCredential', { authenticatorId, credentialId: credential.credentialId });
    await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: { ...credential, signCount: 0 } });
    const response = await ceremony(page, 'get', '/auth/passkeys/authentication-options');
    expect((await post(page, '/auth/passkeys/sign-in', { response })).status).toBe(401);
  });

  it('a removed passkey signs in no more', async () => {
    const signIn = await post(page, '/auth/sign-in', { identifier: 'alice@acme.test', password: DEMO_PASSWORD });
    const { pendingToken } = signIn.body as { pendingToken: string };
    const pair = (await post(page, '/auth/second-factor', { pendingToken, recoveryCode })).body as { accessToken: string };
    expect((await call('DELETE', `/auth/passkeys/${credentialId}`, pair.accessToken)).status, 'the second step counts as a fresh factor').toBe(204);
    expect((await call('GET', '/auth/passkeys', pair.accessToken)).body).toEqual([]);
  });

  it('recorded passkey.added and passkey.removed with the credential id, and each refused passkey, never a WebAuthn response', () => {
    const events = logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.securityEvent === true);
    const passkeyEvents = events.filter((event) => event.event === 'auth.passkey.added' || event.event === 'auth.passkey.removed');
    expect(passkeyEvents.map(({ event, passkeyId }) => ({ event, passkeyId }))).toEqual([
      { event: 'auth.passkey.added', passkeyId: credentialId },
      { event: 'auth.passkey.removed', passkeyId: credentialId },
    ]);
    expect(events.filter((event) => event.event === 'auth.second-factor.failed').length, 'the refused registration, assertions and counter').toBeGreaterThanOrEqual(3);
    const log = logLines.join('\n');
    expect(log, 'a WebAuthn response is in the log').not.toMatch(/clientDataJSON|attestationObject|authenticatorData/);
  });
});
