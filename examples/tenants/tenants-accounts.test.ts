import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, createManualClock, silentLogger, type App } from '../../lib/index.js';
import { send } from '../../test/http-helpers.js';
import { auth } from './claims.js';
import { readTenantsConfig } from './config.js';
import { DEMO_PASSWORD } from './demo-accounts.js';
import { createTenantsModule } from './tenants-module.js';
import { linkIn, startMailbox, type Mailbox } from '../../test/support/test-mailbox.js';

// The account routes of the tenants app, with SMTP_URL pointing at a real SMTP server started
// here (smtp-server on 127.0.0.1:0): every mail is sent by nodemailer, received, parsed, and its
// link followed by posting the link's token, as the app's account pages do.

const APP_URL = 'https://tenants.example';
const PASSWORD = 'a long enough passphrase';
const T0 = Date.parse('2026-11-21T12:00:00Z');

let mailbox: Mailbox;
beforeAll(async () => {
  mailbox = await startMailbox();
});
afterAll(() => mailbox.close());

async function boot(clock = createManualClock(T0)): Promise<App> {
  const config = readTenantsConfig({ AUTH_SECRET: 'tenants-test-secret-0123456789abcdef', SMTP_URL: mailbox.url, APP_URL }, () => undefined);
  return createApp(createTenantsModule(config, { clock }), { logger: silentLogger });
}

/** Every mail the app has started so far, handed to the SMTP server. */
const mailsSent = (app: App) => app.get(auth.ACCOUNT_SERVICE).settled();

const signIn = (app: App, identifier: string, password: string) => send(app, 'POST', '/auth/sign-in', { json: { identifier, password } });

/** Signs up `email` and answers the token of the verification mail it received. */
async function signUp(app: App, email: string): Promise<string> {
  const answer = await send(app, 'POST', '/auth/sign-up', { json: { email, password: PASSWORD } });
  expect(answer.status, answer.text).toBe(202);
  return linkIn(await mailbox.next(email)).token;
}

describe('tenants: sign-up and e-mail verification (POST /auth/sign-up, POST /auth/verify-email)', () => {
  it("mails a link to APP_URL/verify-email carrying token= in its query", async () => {
    const app = await boot();
    await send(app, 'POST', '/auth/sign-up', { json: { email: 'erin@example.test', password: PASSWORD } });
    const { url } = linkIn(await mailbox.next('erin@example.test'));
    expect(`${url.origin}${url.pathname}`).toBe(`${APP_URL}/verify-email`);
  });

  it('refuses sign-in until the address is verified (the same 401 as a wrong password), then signs in to a tenant of their own', async () => {
    const app = await boot();
    const token = await signUp(app, 'frank@example.test');
    const early = await signIn(app, 'frank@example.test', PASSWORD);
    const wrong = await signIn(app, 'frank@example.test', 'not the password at all');
    expect(early.status).toBe(401);
    expect(early.text).toBe(wrong.text);
    expect((await send(app, 'POST', '/auth/verify-email', { json: { token } })).status).toBe(204);
    const signedIn = await signIn(app, 'frank@example.test', PASSWORD);
    expect(signedIn.status).toBe(200);
    const me = await send(app, 'GET', '/me', { headers: { authorization: `Bearer ${(signedIn.json as { accessToken: string }).accessToken}` } });
    const claims = me.json as { sub: string; roles: string[]; tenantId: string };
    expect(claims.roles).toEqual(['owner', 'member']);
    expect(claims.tenantId, 'a new account owns a tenant named by its subject').toBe(claims.sub);
  });

  it('takes a verification link once: a second use is 400', async () => {
    const app = await boot();
    const token = await signUp(app, 'gina@example.test');
    expect((await send(app, 'POST', '/auth/verify-email', { json: { token } })).status).toBe(204);
    const again = await send(app, 'POST', '/auth/verify-email', { json: { token } });
    expect(again.status).toBe(400);
    expect((again.json as { detail: string }).detail).toBe('This link is invalid or has expired');
  });

  it('answers a taken address exactly as a new one, and mails its owner a notice with a reset link instead', async () => {
    const app = await boot();
    const taken = await send(app, 'POST', '/auth/sign-up', { json: { email: 'alice@acme.test', password: PASSWORD } });
    const fresh = await send(app, 'POST', '/auth/sign-up', { json: { email: 'hank@example.test', password: PASSWORD } });
    expect(taken.status).toBe(202);
    expect(taken.text, 'the same body for a taken and a new address').toBe(fresh.text);
    const notice = await mailbox.next('alice@acme.test');
    expect(linkIn(notice).url.pathname).toBe('/reset-password');
    await mailbox.next('hank@example.test');
  });

  it('refuses a password shorter than the policy allows with 400, creating nothing', async () => {
    const app = await boot();
    const answer = await send(app, 'POST', '/auth/sign-up', { json: { email: 'ivy@example.test', password: 'short' } });
    expect(answer.status).toBe(400);
    await mailsSent(app);
    expect(mailbox.received.filter((m) => m.to.includes('ivy@example.test'))).toEqual([]);
  });
});

describe('tenants: password reset (POST /auth/password/forgot, POST /auth/password/reset)', () => {
  it('answers the same for an address with and without an account, and mails only the account', async () => {
    const app = await boot();
    const known = await send(app, 'POST', '/auth/password/forgot', { json: { email: 'bob@acme.test' } });
    const unknown = await send(app, 'POST', '/auth/password/forgot', { json: { email: 'nobody@acme.test' } });
    expect(known.status).toBe(202);
    expect(unknown.text).toBe(known.text);
    const { url } = linkIn(await mailbox.next('bob@acme.test'));
    expect(`${url.origin}${url.pathname}`).toBe(`${APP_URL}/reset-password`);
    await mailsSent(app);
    expect(mailbox.received.filter((m) => m.to.includes('nobody@acme.test'))).toEqual([]);
  });

  it('sets the new password from the link and ends every session of the account', async () => {
    const clock = createManualClock(T0);
    const app = await boot(clock);
    const before = (await signIn(app, 'carol@globex.test', DEMO_PASSWORD)).json as { accessToken: string; refreshToken: string };
    // Sessions are told apart by when they started: the reset ends those started before it.
    clock.advance(60_000);
    await send(app, 'POST', '/auth/password/forgot', { json: { email: 'carol@globex.test' } });
    const { token } = linkIn(await mailbox.next('carol@globex.test'));
    expect((await send(app, 'POST', '/auth/password/reset', { json: { token, password: PASSWORD } })).status).toBe(204);
    expect((await send(app, 'GET', '/me', { headers: { authorization: `Bearer ${before.accessToken}` } })).status, 'the earlier access token').toBe(401);
    expect((await send(app, 'POST', '/auth/refresh', { json: { refreshToken: before.refreshToken } })).status, 'the earlier refresh token').toBe(401);
    expect((await signIn(app, 'carol@globex.test', DEMO_PASSWORD)).status, 'the old password').toBe(401);
    expect((await signIn(app, 'carol@globex.test', PASSWORD)).status, 'the new password').toBe(200);
  });

  it('refuses a password the policy refuses with 400 and keeps the link usable', async () => {
    const app = await boot();
    await send(app, 'POST', '/auth/password/forgot', { json: { email: 'bob@acme.test' } });
    const { token } = linkIn(await mailbox.next('bob@acme.test'));
    expect((await send(app, 'POST', '/auth/password/reset', { json: { token, password: 'short' } })).status).toBe(400);
    expect((await send(app, 'POST', '/auth/password/reset', { json: { token, password: PASSWORD } })).status).toBe(204);
  });

  it('refuses a token that is not a reset link (a verification token) with 400', async () => {
    const app = await boot();
    const token = await signUp(app, 'jack@example.test');
    expect((await send(app, 'POST', '/auth/password/reset', { json: { token, password: PASSWORD } })).status).toBe(400);
  });
});
