// One origin policy (createApp's origins), read by CORS, the WebSocket handshake and browser
// sessions' CSRF check. Each reader has its own tests; these check that all three read this one.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, defineController, defineModule, get, ws, type AppOptions, type OriginPolicy } from '../../lib/index.js';
import { cors } from '../../lib/middleware/index.js';
import { send } from '../http-helpers.js';
import { createTestLogger } from '../support/test-logger.js';
import { browserSignIn, browserTestApp } from '../../lib/auth/sessions/browser/browser-test-app.test-helper.js';

const APP = 'https://app.example.com';
const OTHER = 'https://evil.example';
const routes = defineController({
  name: 'Live',
  routes: () => ({
    hello: get('/hello', () => 'hi'),
    live: ws('/live', { message: z.unknown() }, { message: () => undefined }),
  }),
});
const Root = defineModule({ name: 'Root', controllers: [routes] });
const appWith = (options: AppOptions) => createApp(Root, options);
const upgrade = (origin: string) => ({ upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', origin });

describe("createApp's origins: CORS reads it", () => {
  it('echoes a listed origin and no other', async () => {
    const app = await appWith({ origins: [APP], middleware: [cors()] });
    expect((await send(app, 'GET', '/hello', { headers: { origin: APP } })).headers.get('access-control-allow-origin')).toBe(APP);
    expect((await send(app, 'GET', '/hello', { headers: { origin: OTHER } })).headers.get('access-control-allow-origin'), 'an unlisted origin gets no allow-origin').toBeNull();
  });

  it("answers '*' for any origin, and refuses '*' with credentials", async () => {
    const any = await appWith({ origins: '*', middleware: [cors()] });
    expect((await send(any, 'GET', '/hello', { headers: { origin: OTHER } })).headers.get('access-control-allow-origin')).toBe('*');
    const withCredentials = await appWith({ origins: '*', middleware: [cors({ credentials: true })], logger: createTestLogger().logger });
    expect((await send(withCredentials, 'GET', '/hello', { headers: { origin: OTHER } })).status, 'any origin with cookies would let every site act as the user').toBe(500);
  });

  it("fails the requests of the deprecated cors({ origin }) beside the app's origins (two policies)", async () => {
    const { logger, log } = createTestLogger();
    const app = await appWith({ origins: [APP], middleware: [cors({ origin: [APP] })], logger });
    expect((await send(app, 'GET', '/hello', { headers: { origin: APP } })).status).toBe(500);
    expect(String((log.errors[0]?.error as Error | undefined)?.message)).toMatch(/createApp\(root, \{ origins \}\)/);
  });
});

describe("createApp's origins: the WebSocket handshake reads it", () => {
  it('admits a listed origin without any cors() middleware', async () => {
    const app = await appWith({ origins: [APP] });
    // No runtime upgrader behind app.fetch: a handshake that passed every check is 501.
    expect((await send(app, 'GET', '/live', { headers: upgrade(APP) })).status, 'the handshake passed the origin check').toBe(501);
  });

  it('refuses an unlisted origin with 403', async () => {
    const app = await appWith({ origins: [APP] });
    expect((await send(app, 'GET', '/live', { headers: upgrade(OTHER) })).status).toBe(403);
  });
});

describe("createApp's origins: browser sessions' CSRF check reads it", () => {
  const sameSite = (origin: string) => ({ 'sec-fetch-site': 'same-site', origin });

  it('accepts a cookie request from a listed origin', async () => {
    const { app } = await browserTestApp({}, { origins: [APP] });
    const jar = await browserSignIn(app);
    expect((await send(app, 'POST', '/notes', { headers: { cookie: jar.cookie, 'x-csrf-token': jar.csrf, ...sameSite(APP) } })).status).toBe(200);
  });

  it("refuses every other origin under '*': the CSRF check admits only origins the app named", async () => {
    const { app } = await browserTestApp({}, { origins: '*' });
    const jar = await browserSignIn(app);
    expect((await send(app, 'POST', '/notes', { headers: { cookie: jar.cookie, 'x-csrf-token': jar.csrf, ...sameSite(APP) } })).status).toBe(403);
  });

  it("fails the boot when the deprecated browser.allowedOrigins is given beside the app's origins", async () => {
    await expect(browserTestApp({ allowedOrigins: [APP] }, { origins: [APP] })).rejects.toThrow(/browser\.allowedOrigins .*createApp\(root, \{ origins \}\)/);
  });

  it('still reads browser.allowedOrigins alone, with a boot warning', async () => {
    const { logger, log } = createTestLogger();
    const { app } = await browserTestApp({ allowedOrigins: [APP] }, { logger });
    const jar = await browserSignIn(app);
    expect((await send(app, 'POST', '/notes', { headers: { cookie: jar.cookie, 'x-csrf-token': jar.csrf, ...sameSite(APP) } })).status).toBe(200);
    expect(log.warnings.map((w) => w.message)).toContain('browser.allowedOrigins is deprecated (removed in 0.3): give the same list to createApp(root, { origins }), which CORS and WebSockets read too');
  });
});

describe("createApp's origins: checked at boot", () => {
  it.each<[string, OriginPolicy]>([
    ['a trailing slash', ['https://app.example.com/']],
    ['a path', ['https://app.example.com/app']],
    ["'*' inside a list", ['*']],
  ])('refuses %s', async (_what, origins) => {
    await expect(appWith({ origins })).rejects.toThrow(/origins lists origins exactly as browsers send them/);
  });
});
