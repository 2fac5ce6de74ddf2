// Ending a session refuses its access tokens (stateless JWTs that would otherwise verify until
// they expire), on the instance that ended it and, through the app's PubSub, on every other one:
// here two apps in one process sharing the stores and an in-process bus, as two instances share
// PostgreSQL and Redis (test/redis/three-instances.test.ts runs the same with real processes).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, createManualClock, defineController, del, get, inProcessPubSub, post, type App, type PubSub } from '../../../index.js';
import { send } from '../../../../test/http-helpers.js';
import { defineAuthModule, InMemoryCredentialStore, InMemoryRefreshTokenStore, type TokenPair } from '../../index.js';
import { authTestModule, plainPasswordHasher as passwordHasher, TestClaims as Claims } from '../../core/auth-test-app.test-helper.js';

const NOW = Date.parse('2026-11-25T12:00:00.250Z');
const ACCOUNT = { identifier: 'alice@acme.test', subject: 'u_alice', passwordHash: 'plain:pw', claims: { sub: 'u_alice', roles: ['member'] } };

/** Two instances: their own auth runtime and caches, one credential store, one refresh-token store, one bus. */
async function twoInstances() {
  const clock = createManualClock(NOW);
  const auth = defineAuthModule(Claims);
  const accounts = new InMemoryCredentialStore<z.output<typeof Claims>>([ACCOUNT]);
  const refreshTokens = new InMemoryRefreshTokenStore(clock);
  const bus: PubSub = inProcessPubSub();
  const controller = defineController({
    name: 'Sessions',
    inject: [auth.AUTH_SERVICE],
    routes: (service) => ({
      me: get('/me', { guards: [auth.JwtAuthGuard] }, (ctx) => auth.getCurrentUser(ctx)),
      signIn: post('/sign-in', () => service.signIn(ACCOUNT.identifier, 'pw')),
      refresh: post('/refresh', { body: z.object({ refreshToken: z.string() }) }, (ctx) => service.refresh(ctx.body.refreshToken)),
      signOut: post('/sign-out', { body: z.object({ refreshToken: z.string() }) }, async (ctx) => {
        await service.signOut(ctx.body.refreshToken);
      }),
      signOutEverywhere: del('/sessions', { guards: [auth.JwtAuthGuard] }, async (ctx) => {
        await service.revokeAllSessions(auth.getCurrentUser(ctx)?.sub as string);
      }),
    }),
  });
  const root = authTestModule({
    auth,
    stores: [{ provide: InMemoryCredentialStore, useValue: accounts }, { provide: InMemoryRefreshTokenStore, useValue: refreshTokens }],
    forRoot: (Stores) => ({
      clock,
      issuing: { credentialStore: { useExisting: InMemoryCredentialStore }, refreshTokenStore: { useExisting: InMemoryRefreshTokenStore }, imports: [Stores], passwordHasher },
    }),
    controllers: [controller],
  });
  const start = () => createApp(root, { pubsub: bus });
  const [a, b] = await Promise.all([start(), start()]);
  return { a, b, clock, start };
}

async function signIn(app: App): Promise<TokenPair> {
  const res = await send(app, 'POST', '/sign-in');
  expect(res.status, 'sign-in').toBe(200);
  return res.json as TokenPair;
}
const me = async (app: App, pair: TokenPair) => (await send(app, 'GET', '/me', { headers: { authorization: `Bearer ${pair.accessToken}` } })).status;

describe('session revocation', () => {
  it('puts the session id in the access token, the same on every refresh of the session', async () => {
    const { a } = await twoInstances();
    const first = await signIn(a);
    const next = (await send(a, 'POST', '/refresh', { json: { refreshToken: first.refreshToken } })).json as TokenPair;
    const sid = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()).sid as unknown;
    expect(sid(first.accessToken), 'a version-7 session id').toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    expect(sid(next.accessToken), 'kept across rotation').toBe(sid(first.accessToken));
  });

  it('sign-out refuses that session\'s access token at once on the instance that signed out', async () => {
    const { a } = await twoInstances();
    const pair = await signIn(a);
    expect(await me(a, pair), 'before').toBe(200);
    await send(a, 'POST', '/sign-out', { json: { refreshToken: pair.refreshToken } });
    expect(await me(a, pair), 'after sign-out').toBe(401);
  });

  it('sign-out on one instance refuses the access token on another that had it cached', async () => {
    const { a, b } = await twoInstances();
    const pair = await signIn(a);
    expect(await me(b, pair), 'verified and cached on B').toBe(200);
    await send(a, 'POST', '/sign-out', { json: { refreshToken: pair.refreshToken } });
    expect(await me(b, pair), 'refused on B').toBe(401);
  });

  it('another session of the same user keeps working after one signs out', async () => {
    const { a, b } = await twoInstances();
    const phone = await signIn(a);
    const laptop = await signIn(a);
    await send(a, 'POST', '/sign-out', { json: { refreshToken: phone.refreshToken } });
    expect(await me(b, laptop)).toBe(200);
  });

  it('revoking all sessions refuses every earlier session on both instances', async () => {
    const { a, b, clock } = await twoInstances();
    const phone = await signIn(a);
    const laptop = await signIn(b);
    clock.advance(1);
    expect((await send(a, 'DELETE', '/sessions', { headers: { authorization: `Bearer ${laptop.accessToken}` } })).status).toBe(204);
    expect([await me(a, phone), await me(b, phone), await me(a, laptop), await me(b, laptop)], 'every session, every instance').toEqual([401, 401, 401, 401]);
  });

  it('a session started after revoking all sessions, within the same second, works everywhere', async () => {
    const { a, b, clock } = await twoInstances();
    const old = await signIn(a);
    await send(a, 'DELETE', '/sessions', { headers: { authorization: `Bearer ${old.accessToken}` } });
    clock.advance(1);
    const fresh = await signIn(a);
    expect(Math.floor(clock.now() / 1000), 'same second as the revocation').toBe(Math.floor(NOW / 1000));
    expect([await me(a, fresh), await me(b, fresh)]).toEqual([200, 200]);
  });

  it('a reused refresh token ends its session: the session\'s access tokens are refused everywhere', async () => {
    const { a, b } = await twoInstances();
    const first = await signIn(a);
    const second = (await send(a, 'POST', '/refresh', { json: { refreshToken: first.refreshToken } })).json as TokenPair;
    expect(await me(b, second), 'the rotated session works').toBe(200);
    expect((await send(b, 'POST', '/refresh', { json: { refreshToken: first.refreshToken } })).status, 'the old token replayed').toBe(401);
    expect([await me(a, second), await me(b, second)]).toEqual([401, 401]);
  });

  it('an instance started after a sign-out refuses that session: it reads the ended sessions from the refresh-token store', async () => {
    const { a, start } = await twoInstances();
    const pair = await signIn(a);
    await send(a, 'POST', '/sign-out', { json: { refreshToken: pair.refreshToken } });
    const late = await start();
    expect(await me(late, pair), 'refused by the late instance').toBe(401);
  });

  it('an instance started after revoking all sessions refuses every one of them', async () => {
    const { a, b, clock, start } = await twoInstances();
    const phone = await signIn(a);
    const laptop = await signIn(b);
    clock.advance(1);
    await send(a, 'DELETE', '/sessions', { headers: { authorization: `Bearer ${laptop.accessToken}` } });
    const late = await start();
    expect([await me(late, phone), await me(late, laptop)]).toEqual([401, 401]);
  });
});
