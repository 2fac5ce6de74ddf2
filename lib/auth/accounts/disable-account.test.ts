// Disabling an account ends its sessions on every instance, its access tokens included, before
// they expire (ASVS 5.0 7.4.2): two apps sharing the account and refresh-token stores (as two
// instances share PostgreSQL) and a bus: in-process always, Redis with TEST_REDIS_URL.
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createManualClock, defineController, get, inProcessPubSub, silentLogger, type App, type PubSub } from '../../index.js';
import { redisPubSub } from '../../redis/index.js';
import { send } from '../../../test/http-helpers.js';
import { InMemoryRefreshTokenStore } from '../sessions/issuing/index.js';
import { defineAuthModule } from '../index.js';
import { capturingMailer } from './account-service.test-helper.js';
import { InMemoryAccountStore } from './in-memory-account-store.js';
import { authTestApp, plainPasswordHasher as passwordHasher, TestClaims as Claims } from '../core/auth-test-app.test-helper.js';

const NOW = Date.parse('2026-11-25T12:00:00.000Z');
const PASSWORD = 'correct horse battery';
const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

/** The buses of two instances: one shared in-process bus, or each its own connection to one Redis. */
type Buses = () => readonly [PubSub, PubSub];

/** Two instances over shared stores, each on its bus. */
async function twoInstances(buses: Buses) {
  const [busA, busB] = buses();
  const clock = createManualClock(NOW);
  const accounts = new InMemoryAccountStore<z.output<typeof Claims>>();
  const refreshTokens = new InMemoryRefreshTokenStore(clock);
  const start = async (bus: PubSub) => {
    const auth = defineAuthModule(Claims);
    const controller = defineController({ name: 'Me', routes: () => ({ me: get('/me', { guards: [auth.JwtAuthGuard] }, (ctx) => auth.getCurrentUser(ctx)) }) });
    const app = await authTestApp({
      auth,
      stores: [{ provide: InMemoryAccountStore, useValue: accounts }, { provide: InMemoryRefreshTokenStore, useValue: refreshTokens }],
      forRoot: (Stores) => ({
        clock,
        issuing: { refreshTokenStore: { useExisting: InMemoryRefreshTokenStore }, imports: [Stores], passwordHasher },
        accounts: { store: { useExisting: InMemoryAccountStore }, imports: [Stores], links: 'https://app.example.test', mailer: capturingMailer(), requireVerifiedEmail: false, newAccountClaims: ({ subject }) => ({ sub: subject, roles: ['member'] }) },
      }),
      controllers: [controller],
      app: { pubsub: bus, logger: silentLogger },
    });
    return { app, auth: app.get(auth.AUTH_SERVICE), accounts: app.get(auth.ACCOUNT_SERVICE) };
  };
  const [a, b] = [await start(busA), await start(busB)];
  await a.accounts.signUp('ada@example.test', PASSWORD);
  const subject = (await accounts.findByEmail('ada@example.test'))?.subject as string;
  return { a, b, subject, clock };
}

const me = async (app: App, accessToken: string) => (await send(app, 'GET', '/me', { headers: { authorization: `Bearer ${accessToken}` } })).status;

/** The status B answers once the bus has had time to deliver (a real bus delivers asynchronously); at most 2 s. */
async function settledStatus(app: App, accessToken: string, expected: number): Promise<number> {
  const deadline = Date.now() + 2_000;
  let status = await me(app, accessToken);
  while (status !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    status = await me(app, accessToken);
  }
  return status;
}

function describeDisablingOn(name: string, buses: Buses): void {
  describe(`disabling an account (${name} bus)`, () => {
    it('refuses its access tokens on the other instance, which had accepted them, before they expire', async () => {
      const { a, b, subject, clock } = await twoInstances(buses);
      const [phone, laptop] = [await a.auth.signIn('ada@example.test', PASSWORD), await b.auth.signIn('ada@example.test', PASSWORD)];
      expect([await me(b.app, phone.accessToken), await me(b.app, laptop.accessToken)], 'B accepts both first').toEqual([200, 200]);
      clock.advance(1); // the sessions started a millisecond before (sessions are told apart to the millisecond)
      await a.accounts.disableAccount(subject);
      expect(await me(a.app, phone.accessToken), 'A refuses at once').toBe(401);
      expect([await settledStatus(b.app, phone.accessToken, 401), await settledStatus(b.app, laptop.accessToken, 401)], 'B refuses both sessions').toEqual([401, 401]);
    });

    it('revokes its refresh tokens and refuses a new sign-in', async () => {
      const { a, b, subject } = await twoInstances(buses);
      const pair = await a.auth.signIn('ada@example.test', PASSWORD);
      await a.accounts.disableAccount(subject);
      await expect(b.auth.refresh(pair.refreshToken), 'refresh on B').rejects.toMatchObject({ status: 401 });
      await expect(b.auth.signIn('ada@example.test', PASSWORD), 'sign-in on B').rejects.toMatchObject({ status: 401 });
      expect(await b.auth.listSessions(subject), 'no session left').toEqual([]);
    });
  });
}

describeDisablingOn('in-process', () => {
  const bus = inProcessPubSub();
  return [bus, bus];
});

describe.skipIf(TEST_REDIS_URL === undefined)('with Redis (TEST_REDIS_URL)', () => {
  const clients: Redis[] = [];
  const buses: PubSub[] = [];
  afterAll(async () => {
    await Promise.all(buses.map((bus) => bus.close()));
    await Promise.all(clients.map((client) => client.quit().catch(() => client.disconnect())));
  });
  const connect = (): PubSub => {
    const client = new Redis(TEST_REDIS_URL as string);
    clients.push(client);
    const bus = redisPubSub(client);
    buses.push(bus);
    return bus;
  };
  describeDisablingOn('Redis', () => [connect(), connect()]);
});
