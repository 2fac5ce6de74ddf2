import { afterEach, describe, expect, it } from 'vitest';
import { createApp, createManualClock, silentLogger, type App, type ManualClock } from '../../lib/index.js';
import { serve, type NodeServer } from '../../lib/node.js';
import { send } from '../../test/http-helpers.js';
import { openSocket, type SocketRecord } from '../../test/websocket/socket-client.js';
import { readTenantsConfig } from './config.js';
import { DEMO_PASSWORD } from './demo-accounts.js';
import { createTenantsModule } from './tenants-module.js';

let server: NodeServer | undefined;
afterEach(async () => {
  await server?.close({ forceAfterMs: 500 });
  server = undefined;
});

async function boot(): Promise<{ app: App; url: string; clock: ManualClock }> {
  const config = readTenantsConfig({ AUTH_SECRET: 'tenants-test-secret-0123456789abcdef' }, () => undefined);
  const clock = createManualClock(Date.parse('2026-11-21T12:00:00Z'));
  const app = await createApp(createTenantsModule(config, { clock }), { logger: silentLogger });
  server = await serve(app, { port: 0 });
  return { app, url: server.url.replace('http://', 'ws://'), clock };
}

async function pairOf(app: App, identifier: string): Promise<{ accessToken: string; refreshToken: string }> {
  const res = await send(app, 'POST', '/auth/sign-in', { json: { identifier, password: DEMO_PASSWORD } });
  return res.json as { accessToken: string; refreshToken: string };
}

async function tokenOf(app: App, identifier: string): Promise<string> {
  return (await pairOf(app, identifier)).accessToken;
}

/** The close a socket received, or 'still open' after `ms`. */
const closeWithin = (socket: SocketRecord, ms: number) => Promise.race([socket.closed, new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), ms))]);

const createPost = (app: App, tenant: string, token: string, title: string) => send(app, 'POST', `/tenants/${tenant}/posts`, { json: { title }, headers: { authorization: `Bearer ${token}` } });

describe('tenants: GET /tenants/:tenantId/live', () => {
  it('refuses an upgrade without a credential with 401, before any socket', async () => {
    const { url } = await boot();
    const refused = await openSocket(`${url}/tenants/acme/live`).catch((error: { status: number }) => error);
    expect(refused).toMatchObject({ status: 401 });
  });

  it("refuses another tenant's token with 404, before any socket", async () => {
    const { app, url } = await boot();
    const carol = await tokenOf(app, 'carol@globex.test');
    const refused = await openSocket(`${url}/tenants/acme/live`, { headers: { authorization: `Bearer ${carol}` } }).catch((error: { status: number }) => error);
    expect(refused).toMatchObject({ status: 404 });
  });

  it("pushes the tenant's created posts, and only that tenant's", async () => {
    const { app, url } = await boot();
    const bob = await tokenOf(app, 'bob@acme.test');
    const carol = await tokenOf(app, 'carol@globex.test');
    const live = await openSocket(`${url}/tenants/acme/live`, { headers: { authorization: `Bearer ${bob}` } });
    await new Promise((r) => setTimeout(r, 20)); // open() subscribes asynchronously
    await createPost(app, 'globex', carol, 'Not for acme');
    const created = await createPost(app, 'acme', bob, 'For acme');
    expect(JSON.parse(String(await live.next())), "the first push is acme's post, not globex's").toEqual(created.json);
    expect(live.messages).toHaveLength(1);
    live.ws.close();
  });

  it('accepts a browser token carried as a subprotocol entry, choosing `tessera`', async () => {
    const { app, url } = await boot();
    const bob = await tokenOf(app, 'bob@acme.test');
    const live = await openSocket(`${url}/tenants/acme/live`, { protocols: ['tessera', `tessera.bearer.${bob}`] });
    expect(live.ws.protocol).toBe('tessera');
    live.ws.close();
  });

  it('opens for an API key with posts:read (a server client), and refuses one restricted to another network with 401', async () => {
    const { app, url } = await boot();
    const alice = await tokenOf(app, 'alice@acme.test');
    const create = (body: object) => send(app, 'POST', '/tenants/acme/api-keys', { json: body, headers: { authorization: `Bearer ${alice}` } });
    const reader = ((await create({ name: 'live reader', scopes: ['posts:read'] })).json as { key: string }).key;
    const fenced = ((await create({ name: 'elsewhere', scopes: ['posts:read'], allowedCidrs: ['203.0.113.0/24'] })).json as { key: string }).key;
    const live = await openSocket(`${url}/tenants/acme/live`, { headers: { 'x-api-key': reader } });
    live.ws.close();
    const refused = await openSocket(`${url}/tenants/acme/live`, { headers: { 'x-api-key': fenced } }).catch((error: { status: number }) => error);
    expect(refused, "the key's network rule applies to the upgrade (the client is 127.0.0.1)").toMatchObject({ status: 401 });
  });

  it('refuses a bad token carried as a subprotocol entry with 401', async () => {
    const { url } = await boot();
    const refused = await openSocket(`${url}/tenants/acme/live`, { protocols: ['tessera', 'tessera.bearer.not-a-token'] }).catch((error: { status: number }) => error);
    expect(refused).toMatchObject({ status: 401 });
  });
});

describe('tenants: a live socket ends with its credential', () => {
  it('closes with 1008 when its session signs out, and the socket of another session stays open', async () => {
    const { app, url } = await boot();
    const ending = await pairOf(app, 'bob@acme.test');
    const staying = await pairOf(app, 'bob@acme.test');
    const live = await openSocket(`${url}/tenants/acme/live`, { headers: { authorization: `Bearer ${ending.accessToken}` } });
    const other = await openSocket(`${url}/tenants/acme/live`, { headers: { authorization: `Bearer ${staying.accessToken}` } });
    expect((await send(app, 'POST', '/auth/sign-out', { json: { refreshToken: ending.refreshToken } })).status).toBe(204);
    expect(await closeWithin(live, 1_000), 'the signed-out session\'s socket').toEqual({ code: 1008, reason: 'Session revoked' });
    expect(await closeWithin(other, 200), 'another session of the same user').toBe('still open');
    other.ws.close();
  });

  it('closes every socket of the user on "sign out everywhere"', async () => {
    const { app, url, clock } = await boot();
    const first = await pairOf(app, 'bob@acme.test');
    const second = await pairOf(app, 'bob@acme.test');
    clock.advance(1); // sessions end when they started before the sign-out, as on a real clock
    const sockets = await Promise.all([first, second].map((pair) => openSocket(`${url}/tenants/acme/live`, { headers: { authorization: `Bearer ${pair.accessToken}` } })));
    expect((await send(app, 'DELETE', '/auth/sessions', { headers: { authorization: `Bearer ${first.accessToken}` } })).status).toBe(204);
    for (const socket of sockets) expect(await closeWithin(socket, 1_000)).toEqual({ code: 1008, reason: 'Session revoked' });
    expect((await send(app, 'GET', '/me', { headers: { authorization: `Bearer ${second.accessToken}` } })).status, 'the same rule refuses the token over HTTP').toBe(401);
  });

  it('closes with 1008 when the API key that opened it is revoked', async () => {
    const { app, url } = await boot();
    const alice = await tokenOf(app, 'alice@acme.test');
    const created = (await send(app, 'POST', '/tenants/acme/api-keys', { json: { name: 'live reader', scopes: ['posts:read'] }, headers: { authorization: `Bearer ${alice}` } })).json as { id: string; key: string };
    const live = await openSocket(`${url}/tenants/acme/live`, { headers: { 'x-api-key': created.key } });
    expect((await send(app, 'DELETE', `/tenants/acme/api-keys/${created.id}`, { headers: { authorization: `Bearer ${alice}` } })).status).toBe(204);
    expect(await closeWithin(live, 1_000)).toEqual({ code: 1008, reason: 'API key revoked' });
  });

  it('closes with 1008 when the access token that opened it expires', async () => {
    const { app, url, clock } = await boot();
    const bob = await tokenOf(app, 'bob@acme.test');
    // The token (15 minutes) has 300 ms left by the app's clock when the socket opens.
    clock.advance(900_000 - 300);
    const live = await openSocket(`${url}/tenants/acme/live`, { headers: { authorization: `Bearer ${bob}` } });
    expect(await closeWithin(live, 100), 'not before the token expires').toBe('still open');
    expect(await closeWithin(live, 1_000)).toEqual({ code: 1008, reason: 'Credential expired' });
  });

  it('refuses an upgrade with a signed-out session\'s token with 401', async () => {
    const { app, url } = await boot();
    const ended = await pairOf(app, 'bob@acme.test');
    await send(app, 'POST', '/auth/sign-out', { json: { refreshToken: ended.refreshToken } });
    const refused = await openSocket(`${url}/tenants/acme/live`, { headers: { authorization: `Bearer ${ended.accessToken}` } }).catch((error: { status: number }) => error);
    expect(refused).toMatchObject({ status: 401 });
  });
});

describe('tenants: GET /tenants/:tenantId/events', () => {
  it("streams the tenant's created posts as post-created events, and only that tenant's", async () => {
    const { app } = await boot();
    const bob = await tokenOf(app, 'bob@acme.test');
    const carol = await tokenOf(app, 'carol@globex.test');
    const events = await app.request('/tenants/acme/events', { headers: { authorization: `Bearer ${bob}` } });
    expect(events.headers.get('content-type'), 'an event stream').toMatch(/^text\/event-stream/);
    const reader = (events.body as ReadableStream<Uint8Array>).getReader();
    await createPost(app, 'globex', carol, 'Not for acme');
    const created = await createPost(app, 'acme', bob, 'For acme');
    const { value } = await reader.read();
    const text = new TextDecoder().decode(value);
    expect(text, "acme's post, as a post-created event").toContain(`event: post-created\nid: ${(created.json as { id: string }).id}\ndata: ${JSON.stringify(created.json)}`);
    expect(text, "never globex's").not.toContain('Not for acme');
    await reader.cancel();
  });

  it("refuses another tenant's token with 404 and no credential with 401", async () => {
    const { app } = await boot();
    const carol = await tokenOf(app, 'carol@globex.test');
    expect((await app.request('/tenants/acme/events')).status, 'no credential').toBe(401);
    expect((await app.request('/tenants/acme/events', { headers: { authorization: `Bearer ${carol}` } })).status, 'another tenant').toBe(404);
  });
});
