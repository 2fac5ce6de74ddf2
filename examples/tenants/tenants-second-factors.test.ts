import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { createApp, createManualClock, type App, type ManualClock } from '../../lib/index.js';
import { send } from '../../test/http-helpers.js';
import { readTenantsConfig } from './config.js';
import { DEMO_PASSWORD } from './demo-accounts.js';
import { createTenantsModule } from './tenants-module.js';

const T0 = Date.parse('2026-11-28T12:00:00Z');

interface Pair { accessToken: string; refreshToken: string }
interface Problem { type: string; code?: string; pendingToken?: string; factors?: string[]; step?: string; maxAgeSeconds?: number }

async function boot(): Promise<{ app: App; clock: ManualClock }> {
  const clock = createManualClock(T0);
  const config = readTenantsConfig({ AUTH_SECRET: 'tenants-test-secret-0123456789abcdef' }, () => undefined);
  return { app: await createApp(createTenantsModule(config, { clock })), clock };
}

const bearer = (pair: Pair) => ({ authorization: `Bearer ${pair.accessToken}` });

async function signIn(app: App, identifier = 'alice@acme.test') {
  return send(app, 'POST', '/auth/sign-in', { json: { identifier, password: DEMO_PASSWORD } });
}

async function signedIn(app: App, identifier = 'alice@acme.test'): Promise<Pair> {
  const res = await signIn(app, identifier);
  expect(res.status, `one-step sign-in of ${identifier}`).toBe(200);
  return res.json as Pair;
}

/** The code an authenticator app shows for `secret` at `ms`. */
function codeAt(secret: string, ms: number): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: ms });
}

/** Enrols and confirms a TOTP for the pair's person; answers the base32 secret and the recovery codes. */
async function enableTotp(app: App, clock: ManualClock, pair: Pair): Promise<{ secret: string; recoveryCodes: string[] }> {
  const enrol = await send(app, 'POST', '/auth/factors/totp', { headers: bearer(pair), json: {} });
  expect(enrol.status, 'enrolment').toBe(200);
  const { secret, uri } = enrol.json as { secret: string; uri: string };
  expect(uri).toMatch(/^otpauth:\/\/totp\//);
  const confirm = await send(app, 'POST', '/auth/factors/totp/confirm', { headers: bearer(pair), json: { code: codeAt(secret, clock.now()) } });
  expect(confirm.status, 'confirmation').toBe(200);
  return { secret, recoveryCodes: (confirm.json as { recoveryCodes: string[] }).recoveryCodes };
}

/** Signs in with the password, expecting the second step; answers its pending token. */
async function pendingSignIn(app: App, identifier = 'alice@acme.test'): Promise<string> {
  const res = await signIn(app, identifier);
  expect(res.status, 'a password sign-in of an account with a factor answers 401').toBe(401);
  const problem = res.json as Problem;
  expect(problem.type).toBe('urn:tessera:auth:second-factor-required');
  expect(problem.code).toBe('SECOND_FACTOR_REQUIRED');
  expect(res.headers.get('cache-control')).toBe('no-store');
  return problem.pendingToken as string;
}

describe('tenants: TOTP enrolment and the two-step sign-in', () => {
  it('before a factor is enabled, sign-in is one step', async () => {
    const { app } = await boot();
    const res = await signIn(app);
    expect(res.status).toBe(200);
    expect((res.json as Pair).accessToken).toBeTypeOf('string');
  });

  it('the first confirmation answers ten recovery codes, once; GET /auth/factors shows what is enabled', async () => {
    const { app, clock } = await boot();
    const pair = await signedIn(app);
    const { recoveryCodes } = await enableTotp(app, clock, pair);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code, '24 base32 characters: 120 bits').toMatch(/^[0-9a-hjkmnp-tv-z]{6}(-[0-9a-hjkmnp-tv-z]{6}){3}$/);
    const status = await send(app, 'GET', '/auth/factors', { headers: bearer(pair) });
    expect(status.json).toEqual({ totp: true, passkeys: 0, recoveryCodes: 10, required: true });
  });

  it('a wrong confirmation code enables nothing', async () => {
    const { app } = await boot();
    const pair = await signedIn(app);
    const { secret } = (await send(app, 'POST', '/auth/factors/totp', { headers: bearer(pair), json: {} })).json as { secret: string };
    const wrong = codeAt(secret, T0 + 5 * 60_000);
    const res = await send(app, 'POST', '/auth/factors/totp/confirm', { headers: bearer(pair), json: { code: wrong } });
    expect(res.status).toBe(401);
    expect((await signIn(app)).status, 'sign-in is still one step').toBe(200);
  });

  it('once enabled, password sign-in answers the second step with a pending token and no tokens', async () => {
    const { app, clock } = await boot();
    await enableTotp(app, clock, await signedIn(app));
    const res = await signIn(app);
    expect(res.status).toBe(401);
    const body = res.json as Problem & { accessToken?: string };
    expect(body.accessToken, 'no access token before the factor').toBeUndefined();
    expect(body.factors).toEqual(['totp', 'recovery-code']);
  });

  it('the pending token and a current code give the session', async () => {
    const { app, clock } = await boot();
    const { secret } = await enableTotp(app, clock, await signedIn(app));
    clock.advance(30_000);
    const pendingToken = await pendingSignIn(app);
    const res = await send(app, 'POST', '/auth/second-factor', { json: { pendingToken, code: codeAt(secret, clock.now()) } });
    expect(res.status).toBe(200);
    const me = await send(app, 'GET', '/me', { headers: bearer(res.json as Pair) });
    expect((me.json as { sub: string }).sub).toBe('alice');
  });

  it('a code is never accepted twice, even with a new pending sign-in', async () => {
    const { app, clock } = await boot();
    const { secret } = await enableTotp(app, clock, await signedIn(app));
    clock.advance(30_000);
    const code = codeAt(secret, clock.now());
    expect((await send(app, 'POST', '/auth/second-factor', { json: { pendingToken: await pendingSignIn(app), code } })).status).toBe(200);
    const replay = await send(app, 'POST', '/auth/second-factor', { json: { pendingToken: await pendingSignIn(app), code } });
    expect(replay.status, 'the same code a second time').toBe(401);
  });

  it('the previous step’s code is refused once a later one was used (the last used step is kept)', async () => {
    const { app, clock } = await boot();
    const { secret } = await enableTotp(app, clock, await signedIn(app));
    clock.advance(60_000);
    const older = codeAt(secret, clock.now() - 30_000);
    expect((await send(app, 'POST', '/auth/second-factor', { json: { pendingToken: await pendingSignIn(app), code: codeAt(secret, clock.now()) } })).status).toBe(200);
    expect((await send(app, 'POST', '/auth/second-factor', { json: { pendingToken: await pendingSignIn(app), code: older } })).status).toBe(401);
  });

  it('a pending token is single-use: after a wrong code the right one needs a new sign-in', async () => {
    const { app, clock } = await boot();
    const { secret } = await enableTotp(app, clock, await signedIn(app));
    clock.advance(30_000);
    const pendingToken = await pendingSignIn(app);
    expect((await send(app, 'POST', '/auth/second-factor', { json: { pendingToken, code: '000000' === codeAt(secret, clock.now()) ? '111111' : '000000' } })).status).toBe(401);
    const again = await send(app, 'POST', '/auth/second-factor', { json: { pendingToken, code: codeAt(secret, clock.now()) } });
    expect(again.status).toBe(401);
    expect((again.json as { detail: string }).detail).toBe('Invalid second factor');
  });

  it('a pending token expires after 5 minutes', async () => {
    const { app, clock } = await boot();
    const { secret } = await enableTotp(app, clock, await signedIn(app));
    clock.advance(30_000);
    const pendingToken = await pendingSignIn(app);
    clock.advance(5 * 60_000 + 1);
    expect((await send(app, 'POST', '/auth/second-factor', { json: { pendingToken, code: codeAt(secret, clock.now()) } })).status).toBe(401);
  });

  it('enabling the factor ends the other sessions: their refresh tokens no longer work; the enrolling one does', async () => {
    const { app, clock } = await boot();
    const other = await signedIn(app);
    const enrolling = await signedIn(app);
    await enableTotp(app, clock, enrolling);
    expect((await send(app, 'POST', '/auth/refresh', { json: { refreshToken: other.refreshToken } })).status, 'a session from before the factor').toBe(401);
    expect((await send(app, 'GET', '/me', { headers: bearer(other) })).status, "the other session's access token").toBe(401);
    expect((await send(app, 'POST', '/auth/refresh', { json: { refreshToken: enrolling.refreshToken } })).status, 'the enrolling session').toBe(200);
  });

  // In-process requests carry no client address, so only the per-account tier (50 an hour) counts.
  it('wrong codes are throttled as failed sign-ins: 429 with Retry-After', async () => {
    const { app, clock } = await boot();
    const { secret } = await enableTotp(app, clock, await signedIn(app));
    clock.advance(30_000);
    const wrong = codeAt(secret, clock.now()) === '000000' ? '111111' : '000000';
    let status = 0;
    let retryAfter: string | null = null;
    for (let i = 0; i < 60 && status !== 429; i++) {
      const res = await send(app, 'POST', '/auth/second-factor', { json: { pendingToken: await pendingSignIn(app), code: wrong } });
      status = res.status;
      retryAfter = res.headers.get('retry-after');
    }
    expect(status, 'guessing ends in 429 within 60 tries').toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});

describe('tenants: recovery codes', () => {
  it('a recovery code signs in once; the same code again is refused', async () => {
    const { app, clock } = await boot();
    const { recoveryCodes } = await enableTotp(app, clock, await signedIn(app));
    const code = recoveryCodes[3] as string;
    expect((await send(app, 'POST', '/auth/second-factor', { json: { pendingToken: await pendingSignIn(app), recoveryCode: code.toUpperCase() } })).status, 'first use (case-insensitive)').toBe(200);
    expect((await send(app, 'POST', '/auth/second-factor', { json: { pendingToken: await pendingSignIn(app), recoveryCode: code } })).status, 'second use').toBe(401);
  });

  it('regenerating replaces every code: the old ones stop working, the new ones work', async () => {
    const { app, clock } = await boot();
    const pair = await signedIn(app);
    const { recoveryCodes: old } = await enableTotp(app, clock, pair);
    const res = await send(app, 'POST', '/auth/factors/recovery-codes', { headers: bearer(pair) });
    expect(res.status).toBe(200);
    const fresh = (res.json as { recoveryCodes: string[] }).recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh.some((code) => old.includes(code))).toBe(false);
    expect((await send(app, 'POST', '/auth/second-factor', { json: { pendingToken: await pendingSignIn(app), recoveryCode: old[0] } })).status, 'an old code').toBe(401);
    expect((await send(app, 'POST', '/auth/second-factor', { json: { pendingToken: await pendingSignIn(app), recoveryCode: fresh[0] } })).status, 'a new code').toBe(200);
  });
});

describe('tenants: browser sign-in asks for the factor too', () => {
  const origin = { origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-origin' };

  it('answers the second step without a session cookie, and the browser second step sets the cookies', async () => {
    const { app, clock } = await boot();
    const { secret } = await enableTotp(app, clock, await signedIn(app));
    clock.advance(30_000);
    const first = await send(app, 'POST', '/auth/browser/sign-in', { headers: origin, json: { identifier: 'alice@acme.test', password: DEMO_PASSWORD } });
    expect(first.status).toBe(401);
    expect(first.headers.get('set-cookie'), 'no cookie before the factor').toBeNull();
    const { pendingToken } = first.json as Problem;
    const second = await send(app, 'POST', '/auth/browser/second-factor', { headers: origin, json: { pendingToken, code: codeAt(secret, clock.now()) } });
    expect(second.status).toBe(200);
    expect(second.headers.get('set-cookie')).toMatch(/__Host-tessera-access=/);
  });
});

describe('tenants: step-up on API-key creation', () => {
  const createKey = (app: App, pair: Pair) => send(app, 'POST', '/tenants/acme/api-keys', { headers: bearer(pair), json: { name: 'ci', scopes: ['posts:read'] } });

  it('without a factor, a fresh sign-in creates a key; 5 minutes later the answer asks to sign in again', async () => {
    const { app, clock } = await boot();
    const pair = await signedIn(app);
    expect((await createKey(app, pair)).status, 'right after sign-in').toBe(201);
    clock.advance(5 * 60_000 + 1000);
    const res = await createKey(app, pair);
    expect(res.status).toBe(401);
    const problem = res.json as Problem;
    expect(problem.type).toBe('urn:tessera:auth:step-up-sign-in');
    expect(problem.step).toBe('sign-in');
    expect(problem.maxAgeSeconds).toBe(300);
    expect(res.headers.get('www-authenticate')).toMatch(/error="insufficient_user_authentication".*max_age=300/);
  });

  it('with a factor, the answer asks for the factor; a step-up with a code lets the key be created', async () => {
    const { app, clock } = await boot();
    const pair = await signedIn(app);
    const { secret } = await enableTotp(app, clock, pair);
    clock.advance(5 * 60_000 + 1000);
    const refused = await createKey(app, pair);
    expect(refused.status).toBe(401);
    expect((refused.json as Problem).type).toBe('urn:tessera:auth:step-up-second-factor');
    const stepUp = await send(app, 'POST', '/auth/factors/step-up', { headers: bearer(pair), json: { code: codeAt(secret, clock.now()) } });
    expect(stepUp.status).toBe(204);
    expect((await createKey(app, pair)).status, 'after the step-up').toBe(201);
  });

  it("a sign-in's second step counts as a fresh factor", async () => {
    const { app, clock } = await boot();
    const { secret } = await enableTotp(app, clock, await signedIn(app));
    clock.advance(30_000);
    const res = await send(app, 'POST', '/auth/second-factor', { json: { pendingToken: await pendingSignIn(app), code: codeAt(secret, clock.now()) } });
    expect((await createKey(app, res.json as Pair)).status).toBe(201);
  });

  it('removing the TOTP needs a step-up too; after one it is gone and sign-in is one step again', async () => {
    const { app, clock } = await boot();
    const pair = await signedIn(app);
    const { secret } = await enableTotp(app, clock, pair);
    clock.advance(5 * 60_000 + 1000);
    expect((await send(app, 'DELETE', '/auth/factors/totp', { headers: bearer(pair) })).status, 'without a recent factor').toBe(401);
    expect((await send(app, 'POST', '/auth/factors/step-up', { headers: bearer(pair), json: { code: codeAt(secret, clock.now()) } })).status).toBe(204);
    expect((await send(app, 'DELETE', '/auth/factors/totp', { headers: bearer(pair) })).status).toBe(204);
    expect((await signIn(app)).status).toBe(200);
  });

  it('a wrong step-up code is refused and records nothing', async () => {
    const { app, clock } = await boot();
    const pair = await signedIn(app);
    const { secret } = await enableTotp(app, clock, pair);
    clock.advance(5 * 60_000 + 1000);
    const wrong = codeAt(secret, clock.now()) === '000000' ? '111111' : '000000';
    expect((await send(app, 'POST', '/auth/factors/step-up', { headers: bearer(pair), json: { code: wrong } })).status).toBe(401);
    expect((await createKey(app, pair)).status).toBe(401);
  });
});
