// What a browser sign-in keeps with its session: the User-Agent and the client address, read by
// `browser.clientIp` (over a real Node server, since only a socket has a peer address).
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type NodeServer } from '../../../node.js';
import { ALICE, SAME_ORIGIN, browserTestApp } from './browser-test-app.test-helper.js';
import type { BrowserSessionOptions } from './browser-options.js';

let server: NodeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';

async function signedInSession(options: BrowserSessionOptions) {
  const { app, auth } = await browserTestApp(options);
  server = await serve(app, { port: 0 });
  const res = await fetch(`${server.url}/auth/browser/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': FIREFOX, 'x-forwarded-for': '203.0.113.9', ...SAME_ORIGIN },
    body: JSON.stringify({ identifier: ALICE.identifier, password: ALICE.password }),
  });
  expect(res.status).toBe(200);
  const [session] = await auth.listSessions(ALICE.subject);
  return session;
}

describe('browser sign-in context', () => {
  it('keeps the User-Agent and, by default, the socket peer as the client address (X-Forwarded-For not trusted)', async () => {
    expect(await signedInSession({})).toMatchObject({ userAgent: FIREFOX, clientAddress: '127.0.0.1' });
  });

  it('keeps the address the trusted proxy saw, with clientIp', async () => {
    expect(await signedInSession({ clientIp: { trustedProxyHops: 1, isTrustedProxy: ['127.0.0.1/32'] } })).toMatchObject({ clientAddress: '203.0.113.9' });
  });
});
