// Ending a session through AuthService closes that session's sockets with 1008 (the revocation
// path of sign-out: CredentialRevocation -> webSockets.closeWhere), and only that session's;
// over a real Node server, since sockets need one. Also: a socket opened with the access-token
// cookie passes the origin check first.
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type NodeServer } from '../../../node.js';
import { openSocket, type SocketRecord } from '../../../../test/websocket/socket-client.js';
import { send } from '../../../../test/http-helpers.js';
import { ALICE, browserSignIn, browserTestApp } from '../browser/browser-test-app.test-helper.js';
import { sessionIdOfAccessToken } from '../browser/browser-credentials.js';

let server: NodeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const within = <T>(promise: Promise<T>, ms: number) => Promise.race([promise, new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), ms))]);

async function started() {
  const test = await browserTestApp({});
  server = await serve(test.app, { port: 0 });
  const wsUrl = `${server.url.replace('http://', 'ws://')}/live`;
  const signIn = async () => (await send(test.app, 'POST', '/auth/sign-in', { json: { identifier: ALICE.identifier, password: ALICE.password } })).json as { accessToken: string };
  const socketOf = async (accessToken: string): Promise<SocketRecord> => {
    const socket = await openSocket(wsUrl, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(await socket.next(), 'the socket is open').toBe('hello');
    return socket;
  };
  return { ...test, wsUrl, signIn, socketOf, host: new URL(server.url).host };
}

describe('ending a session closes its sockets', () => {
  it('revokeSession closes the ended session\'s socket with 1008 and leaves the other session\'s open', async () => {
    const { auth, signIn, socketOf } = await started();
    const [ended, kept] = [await signIn(), await signIn()];
    const [endedSocket, keptSocket] = [await socketOf(ended.accessToken), await socketOf(kept.accessToken)];
    expect(await auth.revokeSession(ALICE.subject, sessionIdOfAccessToken(ended.accessToken) as string)).toBe(true);
    expect(await within(endedSocket.closed, 1_000)).toEqual({ code: 1008, reason: 'Session revoked' });
    expect(await within(keptSocket.closed, 200), 'the other session\'s socket stays open').toBe('still open');
    keptSocket.ws.close();
  });

  it('revokeOtherSessions closes the other sessions\' sockets with 1008 and keeps the caller\'s', async () => {
    const { auth, signIn, socketOf } = await started();
    const [current, other] = [await signIn(), await signIn()];
    const [currentSocket, otherSocket] = [await socketOf(current.accessToken), await socketOf(other.accessToken)];
    await auth.revokeOtherSessions(ALICE.subject, sessionIdOfAccessToken(current.accessToken) as string);
    expect(await within(otherSocket.closed, 1_000)).toEqual({ code: 1008, reason: 'Session revoked' });
    expect(await within(currentSocket.closed, 200)).toBe('still open');
    currentSocket.ws.close();
  });
});

describe('sockets opened with the access-token cookie', () => {
  it('open from the API\'s own origin, and close with 1008 when their session ends', async () => {
    const { app, auth, wsUrl, host } = await started();
    const jar = await browserSignIn(app);
    const socket = await openSocket(wsUrl, { headers: { cookie: jar.cookie, origin: `https://${host}` } });
    expect(await socket.next()).toBe('hello');
    expect(await auth.revokeSession(ALICE.subject, sessionIdOfAccessToken(jar.access) as string)).toBe(true);
    expect(await within(socket.closed, 1_000)).toEqual({ code: 1008, reason: 'Session revoked' });
  });

  it('are refused (403) from another site\'s page: a WebSocket is a GET, but cross-site socket hijacking is CSRF too', async () => {
    const { app, wsUrl } = await started();
    const jar = await browserSignIn(app);
    const refusal = await openSocket(wsUrl, { headers: { cookie: jar.cookie, origin: 'https://evil.test' } }).then(
      () => 'opened',
      (error: { status?: number }) => error.status,
    );
    expect(refusal).toBe(403);
  });
});
