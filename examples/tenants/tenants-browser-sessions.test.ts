import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, createManualClock, silentLogger, type App, type ManualClock } from '../../lib/index.js';
import { send } from '../../test/http-helpers.js';
import { toFetchHandler } from '../../lib/fetch.js';
import { readTenantsConfig } from './config.js';
import { DEMO_PASSWORD } from './demo-accounts.js';
import { createTenantsModule } from './tenants-module.js';
import { linkIn, startMailbox, type Mailbox } from '../../test/support/test-mailbox.js';

// The browser routes of the tenants app through app.fetch: sign-in answering with cookies, the
// cookie session on the ordinary routes with its CSRF defence, refresh, sign-out, and the
// account settings a signed-in person changes. Browsers send Sec-Fetch-Site themselves; here the
// requests say what a browser would.

const T0 = Date.parse('2026-11-21T12:00:00Z');
const NEW_PASSWORD = 'a long enough passphrase';
const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };

let mailbox: Mailbox;
beforeAll(async () => {
  mailbox = await startMailbox();
});
afterAll(() => mailbox.close());

async function boot(): Promise<{ app: App; clock: ManualClock }> {
  const clock = createManualClock(T0);
  const config = readTenantsConfig({ AUTH_SECRET: 'tenants-test-secret-0123456789abcdef', SMTP_URL: mailbox.url, APP_URL: 'https://tenants.example' }, () => undefined);
  return { app: await createApp(createTenantsModule(config, { clock }), { logger: silentLogger }), clock };
}

/** A browser's cookie jar, as far as these routes need one: name to value, from Set-Cookie. */
class Jar {
  readonly values = new Map<string, string>();
  take(headers: Headers): string[] {
    const set = headers.getSetCookie();
    for (const line of set) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (value === '' || attributes.some((a) => /^max-age=0$/i.test(a))) this.values.delete(name);
      else this.values.set(name, value);
    }
    return set;
  }
  get header(): string {
    return [...this.values].map(([name, value]) => `${name}=${value}`).join('; ');
  }
  get csrf(): string {
    return decodeURIComponent(this.values.get('__Host-tessera-csrf') ?? '');
  }
}

async function browserSignIn(app: App, jar: Jar, identifier = 'alice@acme.test', password = DEMO_PASSWORD) {
  const res = await send(app, 'POST', '/auth/browser/sign-in', { json: { identifier, password }, headers: { ...SAME_ORIGIN, 'user-agent': 'TestBrowser/1.0' } });
  jar.take(res.headers);
  return res;
}

/** A request from the app's own page: its cookies, and the CSRF token unless told otherwise; the answer's cookies go to the jar. */
async function fromPage(app: App, jar: Jar, method: string, path: string, options: { json?: unknown; csrf?: boolean; site?: string } = {}) {
  const headers: Record<string, string> = { cookie: jar.header, 'sec-fetch-site': options.site ?? 'same-origin' };
  if (options.csrf ?? true) headers['x-csrf-token'] = jar.csrf;
  const res = await send(app, method, path, { headers, ...(options.json === undefined ? {} : { json: options.json }) });
  jar.take(res.headers);
  return res;
}

describe('tenants: browser sign-in, refresh and sign-out (POST /auth/browser/...)', () => {
  it('signs in with three __Host- cookies (access and refresh HttpOnly, all Secure, SameSite=Strict, Path=/) and no token in the body', async () => {
    const { app } = await boot();
    const jar = new Jar();
    const res = await browserSignIn(app, jar);
    expect(res.status).toBe(200);
    expect(Object.keys(res.json as object).sort()).toEqual(['accessTokenExpiresAt', 'csrfToken', 'refreshTokenExpiresAt']);
    const set = res.headers.getSetCookie();
    for (const name of ['__Host-tessera-access', '__Host-tessera-refresh']) {
      const line = set.find((l) => l.startsWith(`${name}=`)) ?? '';
      expect(line, name).toMatch(/; HttpOnly/i);
      expect(line, name).toMatch(/; Secure/i);
      expect(line, name).toMatch(/; SameSite=Strict/i);
      expect(line, name).toMatch(/; Path=\//i);
      expect(line, `${name} has no Domain (a __Host- cookie)`).not.toMatch(/; Domain=/i);
    }
    expect(set.find((l) => l.startsWith('__Host-tessera-csrf=')), 'the CSRF cookie is readable').not.toMatch(/HttpOnly/i);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('refuses a sign-in started by another site with 403, before checking the password', async () => {
    const { app } = await boot();
    const res = await send(app, 'POST', '/auth/browser/sign-in', { json: { identifier: 'alice@acme.test', password: DEMO_PASSWORD }, headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('answers a wrong password with the JSON sign-in\'s 401 and sets no cookie', async () => {
    const { app } = await boot();
    const res = await send(app, 'POST', '/auth/browser/sign-in', { json: { identifier: 'alice@acme.test', password: 'not the password' }, headers: SAME_ORIGIN });
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('refreshes from the cookie with the CSRF token: new cookies, and the old refresh token is reuse', async () => {
    const { app } = await boot();
    const jar = new Jar();
    await browserSignIn(app, jar);
    const oldRefresh = jar.values.get('__Host-tessera-refresh');
    const res = await fromPage(app, jar, 'POST', '/auth/browser/refresh');
    expect(res.status).toBe(200);
    expect(jar.values.get('__Host-tessera-refresh')).not.toBe(oldRefresh);
    const replay = await send(app, 'POST', '/auth/refresh', { json: { refreshToken: oldRefresh } });
    expect(replay.status, 'the rotated refresh token').toBe(401);
  });

  it('refuses a refresh without the CSRF token, or from another site, with 403', async () => {
    const { app } = await boot();
    const jar = new Jar();
    await browserSignIn(app, jar);
    expect((await fromPage(app, jar, 'POST', '/auth/browser/refresh', { csrf: false })).status).toBe(403);
    expect((await fromPage(app, jar, 'POST', '/auth/browser/refresh', { site: 'cross-site' })).status).toBe(403);
  });

  it('signs out: 204, the cookies deleted, the session ended (its access cookie refused)', async () => {
    const { app } = await boot();
    const jar = new Jar();
    await browserSignIn(app, jar);
    const access = jar.values.get('__Host-tessera-access');
    const res = await fromPage(app, jar, 'POST', '/auth/browser/sign-out');
    expect(res.status).toBe(204);
    expect(jar.values.size, 'every cookie deleted').toBe(0);
    expect((await send(app, 'GET', '/me', { headers: { cookie: `__Host-tessera-access=${access}` } })).status).toBe(401);
  });
});

describe('tenants: the cookie session on the ordinary routes', () => {
  it('reads with the cookie alone and writes with the CSRF token', async () => {
    const { app } = await boot();
    const jar = new Jar();
    await browserSignIn(app, jar);
    expect((await fromPage(app, jar, 'GET', '/me', { csrf: false })).json).toMatchObject({ sub: 'alice', tenantId: 'acme' });
    expect((await fromPage(app, jar, 'POST', '/tenants/acme/posts', { json: { title: 'From a page' } })).status).toBe(201);
  });

  it('refuses a cookie-authenticated write without the CSRF token, or started by another origin, with 403, writing nothing', async () => {
    const { app } = await boot();
    const jar = new Jar();
    await browserSignIn(app, jar);
    expect((await fromPage(app, jar, 'POST', '/tenants/acme/posts', { json: { title: 'x' }, csrf: false })).status).toBe(403);
    expect((await fromPage(app, jar, 'POST', '/tenants/acme/posts', { json: { title: 'x' }, site: 'same-site' })).status).toBe(403);
    expect((await fromPage(app, jar, 'GET', '/tenants/acme/posts', { csrf: false })).json).toEqual([]);
  });

  it('leaves header-authenticated requests alone: a bearer write needs no CSRF token', async () => {
    const { app } = await boot();
    const pair = (await send(app, 'POST', '/auth/sign-in', { json: { identifier: 'alice@acme.test', password: DEMO_PASSWORD } })).json as { accessToken: string };
    expect((await send(app, 'POST', '/tenants/acme/posts', { json: { title: 'From a script' }, headers: { authorization: `Bearer ${pair.accessToken}` } })).status).toBe(201);
  });

  it("lists the browser's sessions with the caller's own marked current", async () => {
    const { app } = await boot();
    const laptop = new Jar();
    const phone = new Jar();
    await browserSignIn(app, laptop);
    await browserSignIn(app, phone);
    const sessions = (await fromPage(app, phone, 'GET', '/auth/sessions', { csrf: false })).json as { current: boolean; userAgent: string }[];
    expect(sessions.map((s) => s.current)).toEqual([false, true]);
    expect(sessions.map((s) => s.userAgent)).toEqual(['TestBrowser/1.0', 'TestBrowser/1.0']);
  });

  it('ends another of its sessions from the browser (DELETE with the CSRF token)', async () => {
    const { app } = await boot();
    const laptop = new Jar();
    const phone = new Jar();
    await browserSignIn(app, laptop);
    await browserSignIn(app, phone);
    const [other] = (await fromPage(app, phone, 'GET', '/auth/sessions', { csrf: false })).json as { id: string }[];
    expect((await fromPage(app, phone, 'DELETE', `/auth/sessions/${other!.id}`)).status).toBe(204);
    expect((await fromPage(app, laptop, 'GET', '/me', { csrf: false })).status, 'the ended session').toBe(401);
    expect((await fromPage(app, phone, 'GET', '/me', { csrf: false })).status).toBe(200);
  });
});

describe('tenants: account settings (POST /auth/password/change, POST /auth/email/change)', () => {
  it('changes the password with the current one, ending the other sessions and keeping this one', async () => {
    const { app, clock } = await boot();
    const other = new Jar();
    const here = new Jar();
    await browserSignIn(app, other, 'bob@acme.test');
    await browserSignIn(app, here, 'bob@acme.test');
    clock.advance(1_000);
    const res = await fromPage(app, here, 'POST', '/auth/password/change', { json: { currentPassword: DEMO_PASSWORD, newPassword: NEW_PASSWORD } });
    expect(res.status, res.text).toBe(204);
    expect((await fromPage(app, other, 'GET', '/me', { csrf: false })).status, 'the other session').toBe(401);
    expect((await fromPage(app, here, 'GET', '/me', { csrf: false })).status, 'this session').toBe(200);
    expect((await send(app, 'POST', '/auth/sign-in', { json: { identifier: 'bob@acme.test', password: NEW_PASSWORD } })).status).toBe(200);
  });

  it('refuses a wrong current password with 403 and changes nothing', async () => {
    const { app } = await boot();
    const jar = new Jar();
    await browserSignIn(app, jar, 'bob@acme.test');
    expect((await fromPage(app, jar, 'POST', '/auth/password/change', { json: { currentPassword: 'not the password', newPassword: NEW_PASSWORD } })).status).toBe(403);
    expect((await send(app, 'POST', '/auth/sign-in', { json: { identifier: 'bob@acme.test', password: DEMO_PASSWORD } })).status).toBe(200);
  });

  it("counts wrong current passwords from one address as failed sign-ins: the 6th is 429 with Retry-After, and so is that address's sign-in", async () => {
    const { app } = await boot();
    // Served as Deno serves it, so the app knows the caller's address (app.fetch alone does not).
    const handler = toFetchHandler(app);
    const from = { remoteAddr: { transport: 'tcp', hostname: '198.51.100.23', port: 50_000 } };
    const call = (path: string, json: unknown, headers: Record<string, string> = {}) =>
      Promise.resolve(handler(new Request(`http://localhost${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(json) }), from));
    const signedIn = await call('/auth/sign-in', { identifier: 'bob@acme.test', password: DEMO_PASSWORD });
    const bearer = { authorization: `Bearer ${((await signedIn.json()) as { accessToken: string }).accessToken}` };
    const guess = () => call('/auth/password/change', { currentPassword: 'a wrong guess', newPassword: NEW_PASSWORD }, bearer);
    for (let i = 1; i <= 5; i++) expect((await guess()).status, `guess ${i}`).toBe(403);
    const sixth = await guess();
    expect(sixth.status, 'the 6th guess').toBe(429);
    expect(Number(sixth.headers.get('retry-after')), 'Retry-After in seconds').toBeGreaterThan(0);
    expect((await call('/auth/sign-in', { identifier: 'bob@acme.test', password: DEMO_PASSWORD })).status, 'a sign-in from that address').toBe(429);
  });

  it('moves the account to a new address once the link mailed there is followed, and tells the old one', async () => {
    const { app } = await boot();
    const jar = new Jar();
    await browserSignIn(app, jar, 'carol@globex.test');
    const res = await fromPage(app, jar, 'POST', '/auth/email/change', { json: { currentPassword: DEMO_PASSWORD, newEmail: 'carol@new.example' } });
    expect(res.status).toBe(202);
    const { url, token } = linkIn(await mailbox.next('carol@new.example'));
    expect(url.pathname).toBe('/confirm-email-change');
    expect((await send(app, 'POST', '/auth/email/confirm', { json: { token } })).status).toBe(204);
    await mailbox.next('carol@globex.test');
    expect((await send(app, 'POST', '/auth/sign-in', { json: { identifier: 'carol@new.example', password: DEMO_PASSWORD } })).status).toBe(200);
    expect((await send(app, 'POST', '/auth/sign-in', { json: { identifier: 'carol@globex.test', password: DEMO_PASSWORD } })).status).toBe(401);
  });
});
