// An administrator ends every session of every account (ASVS 5.0 7.4.5): every refresh token is
// revoked in the store and every access token of a session started before is refused, on the
// instance that did it, on the others through the app's PubSub, and on one started afterwards
// (from the store). Two apps in one process share the stores and an in-process bus, as two
// instances share PostgreSQL and Redis.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, createManualClock, defineController, defineModule, get, inProcessPubSub, jsonLogger, post, type App, type PubSub } from '../../../index.js';
import { send } from '../../../../test/http-helpers.js';
import { defineAuthModule, InMemoryCredentialStore, InMemoryRefreshTokenStore, type TokenPair } from '../../index.js';
import { completeRefreshTokenStore } from '../issuing/complete-refresh-token-store.js';
import { BasicInMemoryRefreshTokenStore } from '../issuing/basic-in-memory-refresh-token-store.js';
import { hashRefreshToken } from '../issuing/hash-refresh-token.js';

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256!';
const Claims = z.object({ sub: z.string(), roles: z.array(z.string()) });
const NOW = Date.parse('2026-11-25T12:00:00.250Z');
const passwordHasher = { hash: async (password: string) => `plain:${password}`, verify: async (password: string, phc: string) => phc === `plain:${password}` };
const ALICE = { identifier: 'alice@acme.test', subject: 'u_alice', passwordHash: 'plain:pw', claims: { sub: 'u_alice', roles: ['member'] } };
const BOB = { identifier: 'bob@acme.test', subject: 'u_bob', passwordHash: 'plain:pw', claims: { sub: 'u_bob', roles: ['member'] } };

/** Two instances sharing one credential store, one refresh-token store and one bus; each logs to `lines`. */
async function twoInstances() {
  const clock = createManualClock(NOW);
  const auth = defineAuthModule(Claims);
  const accounts = new InMemoryCredentialStore<z.output<typeof Claims>>([ALICE, BOB]);
  const refreshTokens = new InMemoryRefreshTokenStore(clock);
  const bus: PubSub = inProcessPubSub();
  const lines: string[] = [];
  const Stores = defineModule({
    name: 'Stores',
    providers: [
      { provide: InMemoryCredentialStore, useValue: accounts },
      { provide: InMemoryRefreshTokenStore, useValue: refreshTokens },
    ],
    exports: [InMemoryCredentialStore, InMemoryRefreshTokenStore],
  });
  const controller = defineController({
    name: 'Sessions',
    inject: [auth.AUTH_SERVICE],
    routes: (service) => ({
      me: get('/me', { guards: [auth.JwtAuthGuard] }, (ctx) => auth.getCurrentUser(ctx)),
      signIn: post('/sign-in', { body: z.object({ identifier: z.string() }) }, (ctx) => service.signIn(ctx.body.identifier, 'pw')),
      refresh: post('/refresh', { body: z.object({ refreshToken: z.string() }) }, (ctx) => service.refresh(ctx.body.refreshToken)),
      // An administrator's route in a real app: behind its own guard.
      everyone: post('/admin/revoke-every-session', async () => {
        await service.revokeEverySession();
      }),
    }),
  });
  const root = defineModule({
    name: 'Root',
    imports: [
      Stores,
      auth.AuthModule.forRoot({
        secret: SECRET,
        clock,
        issuing: { credentialStore: { useExisting: InMemoryCredentialStore }, refreshTokenStore: { useExisting: InMemoryRefreshTokenStore }, imports: [Stores], passwordHasher },
      }),
    ],
    controllers: [controller],
  });
  const start = () => createApp(root, { pubsub: bus, logger: jsonLogger({ write: (line) => lines.push(line) }) });
  const [a, b] = await Promise.all([start(), start()]);
  return { a, b, clock, start, refreshTokens, lines };
}

async function signIn(app: App, identifier: string): Promise<TokenPair> {
  const res = await send(app, 'POST', '/sign-in', { json: { identifier } });
  expect(res.status, 'sign-in').toBe(200);
  return res.json as TokenPair;
}
const me = async (app: App, pair: TokenPair) => (await send(app, 'GET', '/me', { headers: { authorization: `Bearer ${pair.accessToken}` } })).status;
const refresh = async (app: App, pair: TokenPair) => (await send(app, 'POST', '/refresh', { json: { refreshToken: pair.refreshToken } })).status;
const revokeEverySession = async (app: App) => expect((await send(app, 'POST', '/admin/revoke-every-session')).status, 'the operation').toBe(204);

describe("ending everyone's sessions (revokeEverySession)", () => {
  it("refuses every account's access tokens on the instance that did it and on the others", async () => {
    const { a, b, clock } = await twoInstances();
    const alice = await signIn(a, ALICE.identifier);
    const bob = await signIn(b, BOB.identifier);
    expect([await me(a, alice), await me(b, bob)], 'before').toEqual([200, 200]);
    clock.advance(1);
    await revokeEverySession(a);
    expect([await me(a, alice), await me(b, alice), await me(a, bob), await me(b, bob)], "alice's and bob's access tokens on A and B").toEqual([401, 401, 401, 401]);
  });

  it('revokes every refresh token in the store: none refreshes', async () => {
    const { a, b, clock, refreshTokens } = await twoInstances();
    const alice = await signIn(a, ALICE.identifier);
    const bob = await signIn(b, BOB.identifier);
    clock.advance(1);
    await revokeEverySession(b);
    expect([await refresh(a, alice), await refresh(b, bob)], 'the refresh tokens').toEqual([401, 401]);
    const stored = await Promise.all([alice, bob].map(async (pair) => (await refreshTokens.find(hashRefreshToken(pair.refreshToken)))?.revokedAt));
    expect(stored, 'revoked in the store').toEqual([new Date(NOW + 1), new Date(NOW + 1)]);
  });

  it('lets everyone sign in again: a session started afterwards works everywhere', async () => {
    const { a, b, clock } = await twoInstances();
    await signIn(a, ALICE.identifier);
    clock.advance(1);
    await revokeEverySession(a);
    clock.advance(1_000);
    const again = await signIn(a, ALICE.identifier);
    expect([await me(a, again), await me(b, again)], 'the new session on A and B').toEqual([200, 200]);
  });

  it('an instance started afterwards refuses the ended sessions too (it reads them from the store)', async () => {
    const { a, clock, start } = await twoInstances();
    const alice = await signIn(a, ALICE.identifier);
    const bob = await signIn(a, BOB.identifier);
    clock.advance(1);
    await revokeEverySession(a);
    const late = await start();
    expect([await me(late, alice), await me(late, bob)]).toEqual([401, 401]);
  });

  it('records one session.revoked event, reason everyone-revoked, with no subject', async () => {
    const { a, lines } = await twoInstances();
    await signIn(a, ALICE.identifier);
    await revokeEverySession(a);
    const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.event === 'auth.session.revoked');
    expect(events.map(({ reason, subject }) => ({ reason, subject }))).toEqual([{ reason: 'everyone-revoked', subject: undefined }]);
  });

  it('is refused, naming the missing operation, with a store that cannot revoke every token', async () => {
    const store = completeRefreshTokenStore(new BasicInMemoryRefreshTokenStore());
    await expect(store.revokeEverySession(), 'a store without revokeEverySession').rejects.toThrow(/revokeEverySession/);
  });
});
