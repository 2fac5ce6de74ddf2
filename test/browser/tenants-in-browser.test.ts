import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Cookie, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, createManualClock, silentLogger, type App, type ManualClock } from '../../lib/index.js';
import { createRequestListener } from '../../lib/node.js';
import { serveTenantsAccountPages } from '../../examples/tenants/account-pages.js';
import { readTenantsConfig } from '../../examples/tenants/config.js';
import { createTenantsModule } from '../../examples/tenants/tenants-module.js';
import { linkIn, startMailbox, type Mailbox } from '../support/test-mailbox.js';
import { CHROMIUM, hasChromium } from './cross-origin-blog.js';

// The tenants app's browser sessions in Debian's Chromium (playwright-core, never a downloaded
// browser): sign up, follow the verification mail from an SMTP server started here, sign in with
// cookies, the CSRF defence against pages of other origins, refresh after the access token
// expires (the app's clock is a manual one, moved past the access token's 900 s), sign out.
// http://127.0.0.1 is a potentially trustworthy origin for Chromium, so `Secure` and `__Host-`
// cookies work over plain http here, as they would over https in production.

const EMAIL = 'dora@example.test';
const PASSWORD = 'a long enough passphrase';
const ACCESS = '__Host-tessera-access';
const REFRESH = '__Host-tessera-refresh';
const CSRF = '__Host-tessera-csrf';

/** What the page's fetch answered. */
interface Answer {
  readonly status: number;
  readonly body: unknown;
}

/** A fetch from the app's own page (same origin: its cookies go with it); `csrf` echoes the readable CSRF cookie in X-CSRF-Token. */
function call(page: Page, method: string, path: string, options: { json?: unknown; csrf?: boolean } = {}): Promise<Answer> {
  return page.evaluate(
    async ({ method, path, json, csrf, csrfCookie }) => {
      const headers: Record<string, string> = {};
      if (json !== undefined) headers['content-type'] = 'application/json';
      if (csrf) {
        const pair = document.cookie.split('; ').find((entry) => entry.startsWith(`${csrfCookie}=`));
        headers['x-csrf-token'] = pair === undefined ? '' : decodeURIComponent(pair.slice(csrfCookie.length + 1));
      }
      const response = await fetch(path, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
      const text = await response.text();
      return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
    },
    { method, path, json: options.json, csrf: options.csrf ?? false, csrfCookie: CSRF },
  );
}

/** Listens on 127.0.0.1, port 0, and answers its origin. */
async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

describe.skipIf(!hasChromium)('the tenants app in headless Chromium: an account with browser sessions (needs Debian chromium; .ci/run installs it)', () => {
  let mailbox: Mailbox;
  let clock: ManualClock;
  let app: App;
  let apiServer: Server;
  let otherServer: Server;
  /** The app's origin: its API, its account pages and the test's page. */
  let origin: string;
  /** Another origin of the same site (127.0.0.1, another port): cookies reach the app from it, SameSite does not stop them. */
  let sameSiteOrigin: string;
  /** Another site (localhost): SameSite=Strict cookies never go with its requests. */
  let crossSiteOrigin: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    mailbox = await startMailbox();
    // The app's origin must be known before the app is made (the mails' links point to it).
    apiServer = createServer();
    origin = await listen(apiServer);
    clock = createManualClock(Date.now());
    const config = readTenantsConfig({ AUTH_SECRET: 'tenants-browser-secret-0123456789abcdef', SMTP_URL: mailbox.url, APP_URL: origin }, () => undefined);
    app = await createApp(createTenantsModule(config, { clock }), { logger: silentLogger });
    serveTenantsAccountPages(app);
    // The page the test drives: same origin as the API, so its fetches carry the session cookies.
    app.addRawRoute('GET', '/test-page', () => new Response('<!doctype html><title>tenants</title><p>test page</p>', { headers: { 'content-type': 'text/html; charset=utf-8' } }));
    apiServer.on('request', createRequestListener(app));

    // Pages of other origins, each a form that posts to the app (the classic CSRF attack).
    otherServer = createServer((req, res) => {
      const target = new URL(req.url ?? '/', 'http://x').searchParams.get('target') ?? '';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><form method="POST" action="${target}"><input name="title" value="planted"></form>`);
    });
    const other = await listen(otherServer);
    sameSiteOrigin = other;
    crossSiteOrigin = other.replace('//127.0.0.1', '//localhost');

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    context = await browser.newContext();
    page = await context.newPage();
    await page.goto(`${origin}/test-page`);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (otherServer !== undefined) await closeServer(otherServer);
    if (apiServer !== undefined) await closeServer(apiServer);
    await app?.close();
    await mailbox?.close();
  });

  const cookie = async (name: string): Promise<Cookie | undefined> => (await context.cookies(origin)).find((c) => c.name === name);

  /** Submits the form of a page on `pageOrigin` to `path` of the app and answers the status of the app's answer. */
  async function formPostFrom(pageOrigin: string, path: string): Promise<number> {
    const attacker = await context.newPage();
    try {
      await attacker.goto(`${pageOrigin}/?target=${encodeURIComponent(origin + path)}`);
      // Listening before the submit (waitForResponse subscribes asynchronously and could miss a fast answer).
      const answered = new Promise<number>((resolve) => {
        attacker.on('response', (r) => {
          if (r.url() === origin + path && r.request().method() === 'POST') resolve(r.status());
        });
      });
      await attacker.evaluate(() => document.forms[0]?.submit());
      return await answered;
    } finally {
      // Not awaited to the end: closing a page whose last navigation was a refused form POST
      // took Chromium 20 s in about half the runs on this loaded machine (the close, not the answer).
      await attacker.close({ runBeforeUnload: true });
    }
  }

  it('signs up: 202, and the in-test SMTP server receives a verification mail whose link carries token=', async () => {
    const answer = await call(page, 'POST', '/auth/sign-up', { json: { email: EMAIL, password: PASSWORD } });
    expect(answer.status).toBe(202);
    const mail = await mailbox.next(EMAIL);
    const { url } = linkIn(mail);
    expect(url.origin, 'the link points to the app').toBe(origin);
    expect(url.pathname).toBe('/verify-email');
  });

  it('refuses the unverified account a sign-in, as a wrong password (401)', async () => {
    const answer = await call(page, 'POST', '/auth/browser/sign-in', { json: { identifier: EMAIL, password: PASSWORD } });
    expect(answer.status).toBe(401);
  });

  it("following the mail's link in the browser verifies the address (the app's page posts the token)", async () => {
    const mail = mailbox.received.find((m) => m.to.includes(EMAIL));
    const linkPage = await context.newPage();
    try {
      await linkPage.goto(linkIn(mail!).url.href);
      await linkPage.waitForSelector('body[data-outcome]', { timeout: 10_000 });
      expect(await linkPage.getAttribute('body', 'data-outcome'), await linkPage.textContent('#status') ?? '').toBe('done');
    } finally {
      await linkPage.close();
    }
  });

  it('signs in with cookies, never tokens in the body: __Host- access and refresh cookies HttpOnly, Secure, SameSite=Strict, Path=/', async () => {
    const answer = await call(page, 'POST', '/auth/browser/sign-in', { json: { identifier: EMAIL, password: PASSWORD } });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body as object).sort(), 'the body: expiry times and the CSRF token, no token').toEqual(['accessTokenExpiresAt', 'csrfToken', 'refreshTokenExpiresAt']);
    for (const name of [ACCESS, REFRESH]) {
      expect(await cookie(name), name).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/', domain: '127.0.0.1' });
    }
    // Readable on purpose (the page echoes it), and worth nothing without the HttpOnly session cookies.
    expect(await cookie(CSRF)).toMatchObject({ httpOnly: false, secure: true, sameSite: 'Strict', path: '/', value: (answer.body as { csrfToken: string }).csrfToken });
    const visible = await page.evaluate(() => document.cookie);
    expect(visible, "the page's scripts see only the CSRF cookie").not.toContain(ACCESS);
    expect(visible).not.toContain(REFRESH);
  });

  it('the cookie session reaches protected routes: /me, and a write with the CSRF token', async () => {
    const me = await call(page, 'GET', '/me');
    expect(me.status).toBe(200);
    const { tenantId } = me.body as { tenantId: string };
    const created = await call(page, 'POST', `/tenants/${tenantId}/posts`, { json: { title: 'From the browser' }, csrf: true });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  });

  it('refuses a cookie-authenticated write without the CSRF token with 403', async () => {
    const { tenantId } = (await call(page, 'GET', '/me')).body as { tenantId: string };
    const refused = await call(page, 'POST', `/tenants/${tenantId}/posts`, { json: { title: 'No token' } });
    expect(refused.status).toBe(403);
  });

  it('refuses a form POST from a page of another site (localhost) with 403', async () => {
    expect(await formPostFrom(crossSiteOrigin, '/auth/browser/refresh')).toBe(403);
  });

  it('refuses a form POST from another origin of the same site, which does carry the cookies, with 403; nothing is written', async () => {
    const { tenantId } = (await call(page, 'GET', '/me')).body as { tenantId: string };
    expect(await formPostFrom(sameSiteOrigin, `/tenants/${tenantId}/posts`)).toBe(403);
    const posts = (await call(page, 'GET', `/tenants/${tenantId}/posts`)).body as { title: string }[];
    expect(posts.map((p) => p.title)).toEqual(['From the browser']);
  });

  it("lists the browser's session with Chromium's user agent", async () => {
    const sessions = await call(page, 'GET', '/auth/sessions');
    expect(sessions.status).toBe(200);
    const list = sessions.body as { userAgent: string | null }[];
    expect(list).toHaveLength(1);
    expect(list[0]?.userAgent).toMatch(/HeadlessChrome|Chrome/);
  });

  it('once the access token has expired, /me is 401 until the page refreshes; refresh rotates both cookies', async () => {
    clock.advance(901_000);
    expect((await call(page, 'GET', '/me')).status, 'the expired access token').toBe(401);
    const before = { access: (await cookie(ACCESS))?.value, refresh: (await cookie(REFRESH))?.value };
    const refreshed = await call(page, 'POST', '/auth/browser/refresh', { csrf: true });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect((await cookie(ACCESS))?.value).not.toBe(before.access);
    expect((await cookie(REFRESH))?.value).not.toBe(before.refresh);
    expect((await call(page, 'GET', '/me')).status).toBe(200);
  });

  it('signs out: 204, the cookies are deleted, and the ended session is refused on replay', async () => {
    const access = (await cookie(ACCESS))?.value;
    const signedOut = await call(page, 'POST', '/auth/browser/sign-out', { csrf: true });
    expect(signedOut.status).toBe(204);
    expect((await context.cookies(origin)).map((c) => c.name)).toEqual([]);
    expect((await call(page, 'GET', '/me')).status).toBe(401);
    const replay = await app.fetch(new Request(`${origin}/me`, { headers: { authorization: `Bearer ${access}` } }));
    expect(replay.status, 'the access token of the ended session').toBe(401);
  });
});
