import { SignJWT } from 'jose';
import { createTestLogger } from '../../../test/support/test-logger.js';
import { toFetchHandler } from '../../fetch.js';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { jsonLogger, createManualClock, defineController, get, createToken } from '../../index.js';
import { send } from '../../../test/http-helpers.js';
import { defineAuthModule, generateApiKey, InMemoryApiKeyStore, Public, RequireScopes, Roles, type ApiKeyRecord, type ApiKeyStore } from '../index.js';
import { apiKeyStoreFrom, authTestApp } from './auth-test-app.test-helper.js';

const SECRET = 'api-key-guard-test-secret-0123456789abcdef';
const Claims = z.object({ sub: z.string(), roles: z.array(z.string()), tenantId: z.string() });
const NOW = Date.parse('2026-11-21T12:00:00Z');
const STORE = createToken<ApiKeyStore>('TestStore');

async function bearerToken(claims: Record<string, unknown> = { sub: 'u', roles: ['member'], tenantId: 't' }) {
  const jwt = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' }).setExpirationTime(NOW / 1000 + 900).sign(new TextEncoder().encode(SECRET));
  return { authorization: `Bearer ${jwt}` };
}

function keyRecord(overrides: Partial<ApiKeyRecord> = {}) {
  const generated = generateApiKey();
  const record: ApiKeyRecord = {
    id: generated.id,
    secretHash: generated.secretHash,
    claims: { sub: `key:${generated.id}`, roles: ['member'], tenantId: 't' },
    scopes: ['posts:read'],
    ...overrides,
  };
  return { key: generated.key, record };
}

async function setup(options: { scopedRoutesOnly?: boolean; store?: ApiKeyStore; apiKeys?: boolean; log?: string[] } = {}) {
  const { logger, log: logged } = createTestLogger();
  const auth = defineAuthModule(Claims);
  const clock = createManualClock(NOW);
  const store = options.store ?? new InMemoryApiKeyStore();
  const controller = defineController({
    name: 'Posts',
    metadata: [RequireScopes('posts:read')],
    routes: () => ({
      read: get('/posts', (ctx) => ({ user: auth.getCurrentUser(ctx), key: auth.getCurrentApiKey(ctx) ?? null })),
      write: get('/posts/write', { metadata: [RequireScopes('posts:read', 'posts:write')] }, () => 'wrote'),
      replaced: get('/posts/admin-scope', { metadata: [RequireScopes('admin')] }, () => 'admin'),
      owner: get('/posts/owner', { metadata: [Roles('owner')] }, () => 'owner'),
      open: get('/posts/open', { metadata: [Public()] }, () => 'open'),
      jwtOnly: get('/posts/jwt', { guards: [auth.JwtAuthGuard] }, () => 'jwt'),
    }),
  });
  const unscoped = defineController({ name: 'Other', routes: () => ({ other: get('/other', () => 'other') }) });
  const app = await authTestApp({
    auth,
    stores: [{ provide: STORE, useValue: store }],
    forRoot: (Stores) => ({
      secret: SECRET,
      clock,
      protectAllRoutes: true,
      apiKeys: options.apiKeys === false ? undefined : { store: apiKeyStoreFrom(STORE), imports: [Stores], scopedRoutesOnly: options.scopedRoutesOnly },
    }),
    controllers: [controller, unscoped],
    app: options.log ? { logger: jsonLogger({ write: (line) => options.log?.push(line) }), accessLog: { fields: (ctx) => ({ keyId: auth.getCurrentApiKey(ctx)?.id }) } } : { logger },
  });
  return { app, clock, store: store as InMemoryApiKeyStore, logged };
}

describe('AuthGuard with API keys', () => {
  it('authenticates a key to the same claims as a token, and exposes { id, scopes }', async () => {
    const { app, store } = await setup();
    const { key, record } = keyRecord();
    store.add(record);
    const res = await send(app, 'GET', '/posts', { headers: { 'x-api-key': key } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ user: record.claims, key: { id: record.id, scopes: ['posts:read'] } });
    const viaToken = await send(app, 'GET', '/posts', { headers: await bearerToken() });
    expect((viaToken.json as { key: unknown }).key).toBeNull();
  });

  it('uses the key as the credential when present: a bad key is 401 even beside a valid bearer token', async () => {
    const { app } = await setup();
    const res = await send(app, 'GET', '/posts', { headers: { 'x-api-key': 'tsk_garbage', ...(await bearerToken()) } });
    expect(res.status).toBe(401);
    expect((res.json as { detail: string }).detail).toBe('Invalid API key');
  });

  it('ignores x-api-key when keys are not configured', async () => {
    const { app } = await setup({ apiKeys: false });
    expect((await send(app, 'GET', '/posts', { headers: { 'x-api-key': 'tsk_garbage', ...(await bearerToken()) } })).status).toBe(200);
  });

  it('JwtAuthGuard never accepts a key', async () => {
    const { app, store } = await setup();
    const { key, record } = keyRecord();
    store.add(record);
    // AuthGuard (protectAllRoutes) accepts the key, then JwtAuthGuard insists on a bearer token.
    expect((await send(app, 'GET', '/posts/jwt', { headers: { 'x-api-key': key } })).status).toBe(401);
  });

  it('gives the same 401 body for unknown, wrong-secret, revoked and expired keys', async () => {
    const { app, store, clock } = await setup();
    const valid = keyRecord();
    const revoked = keyRecord({ revokedAt: new Date(NOW) });
    const expiring = keyRecord({ expiresAt: new Date(NOW + 1000) });
    for (const k of [valid, revoked, expiring]) store.add(k.record);
    const wrongSecret = `${valid.key.slice(0, -43)}${generateApiKey().key.slice(-43)}`;
    const bodies = new Set<string>();
    for (const key of [generateApiKey().key, wrongSecret, revoked.key]) {
      const res = await send(app, 'GET', '/posts', { headers: { 'x-api-key': key } });
      expect(res.status).toBe(401);
      bodies.add(res.text);
    }
    expect((await send(app, 'GET', '/posts', { headers: { 'x-api-key': expiring.key } })).status).toBe(200);
    clock.advance(1000);
    const expired = await send(app, 'GET', '/posts', { headers: { 'x-api-key': expiring.key } });
    expect(expired.status).toBe(401);
    bodies.add(expired.text);
    expect(bodies.size).toBe(1);
  });

  it('answers 503 when the store throws, never letting the request through', async () => {
    const failing: ApiKeyStore = { find: vi.fn(async () => { throw new Error('db down: password=hunter2'); }) };
    const { app, logged } = await setup({ store: failing });
    const res = await send(app, 'GET', '/posts', { headers: { 'x-api-key': generateApiKey().key } });
    expect(res.status).toBe(503);
    expect(res.text).not.toMatch(/hunter2|db down/);
    expect(logged.errors.map((e) => e.message), 'the 503 is reported to the logger, without the store\u2019s message').toEqual(['HTTP 503: API key verification is unavailable']);
  });

  it('refuses keys with allowedCidrs when the address is unknown, and checks it when the runtime passes one', async () => {
    const { app, store } = await setup();
    const { key, record } = keyRecord({ allowedCidrs: ['203.0.113.0/24'] });
    store.add(record);
    expect((await send(app, 'GET', '/posts', { headers: { 'x-api-key': key } })).status).toBe(401);
    const fromDeno = (address: string) =>
      toFetchHandler(app)(new Request('http://localhost/posts', { headers: { 'x-api-key': key } }), { remoteAddr: { hostname: address } });
    expect((await fromDeno('203.0.113.7')).status).toBe(200);
    expect((await fromDeno('::ffff:203.0.113.7')).status).toBe(200);
    expect((await fromDeno('198.51.100.1')).status).toBe(401);
  });

  it('requires every scope of the effective list, route replacing controller; tokens are never held to scopes', async () => {
    const { app, store } = await setup();
    const reader = keyRecord({ scopes: ['posts:read'] });
    const writer = keyRecord({ scopes: ['posts:read', 'posts:write'] });
    const adminOnly = keyRecord({ scopes: ['admin'] });
    for (const k of [reader, writer, adminOnly]) store.add(k.record);
    expect((await send(app, 'GET', '/posts/write', { headers: { 'x-api-key': reader.key } })).status).toBe(403);
    expect((await send(app, 'GET', '/posts/write', { headers: { 'x-api-key': writer.key } })).status).toBe(200);
    expect((await send(app, 'GET', '/posts/admin-scope', { headers: { 'x-api-key': adminOnly.key } })).status).toBe(200);
    expect((await send(app, 'GET', '/posts', { headers: { 'x-api-key': adminOnly.key } })).status).toBe(403);
    expect((await send(app, 'GET', '/posts/write', { headers: await bearerToken() })).status).toBe(200);
  });

  it('applies Roles to key claims', async () => {
    const { app, store } = await setup();
    const member = keyRecord();
    const owner = keyRecord({ claims: { sub: 'k', roles: ['owner'], tenantId: 't' } });
    for (const k of [member, owner]) store.add(k.record);
    expect((await send(app, 'GET', '/posts/owner', { headers: { 'x-api-key': member.key } })).status).toBe(403);
    expect((await send(app, 'GET', '/posts/owner', { headers: { 'x-api-key': owner.key } })).status).toBe(200);
  });

  it('with scopedRoutesOnly refuses keys on unscoped routes (403) but leaves public routes public', async () => {
    const { app, store } = await setup({ scopedRoutesOnly: true });
    const { key, record } = keyRecord();
    store.add(record);
    expect((await send(app, 'GET', '/other', { headers: { 'x-api-key': key } })).status).toBe(403);
    expect((await send(app, 'GET', '/other', { headers: await bearerToken() })).status).toBe(200);
    expect((await send(app, 'GET', '/posts/open', { headers: { 'x-api-key': key } })).status).toBe(200);
    expect((await send(app, 'GET', '/posts/open', { headers: { 'x-api-key': 'garbage' } })).status).toBe(200);
  });

  it('logs the key id, never the key, secret or hash', async () => {
    const log: string[] = [];
    const { app, store } = await setup({ log });
    const { key, record } = keyRecord();
    store.add(record);
    const bodies: string[] = [];
    bodies.push((await send(app, 'GET', '/posts', { headers: { 'x-api-key': key } })).text);
    bodies.push((await send(app, 'GET', '/posts/write', { headers: { 'x-api-key': key } })).text);
    bodies.push((await send(app, 'GET', '/posts', { headers: { 'x-api-key': `${key.slice(0, -1)}A` } })).text);
    expect(JSON.parse(log[0] ?? '{}'), 'the access line names the key by its id').toMatchObject({ msg: 'request completed', path: '/posts', status: 200, keyId: record.id });
    const everything = [...log, ...bodies].join('\n');
    const secret = key.slice(-43);
    for (const needle of [key, secret, record.secretHash]) expect(everything).not.toContain(needle);
  });
});
