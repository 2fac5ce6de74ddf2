// Sign-in throttling through an app: AuthModule.forRoot's signInThrottle option, a sign-in route,
// app.request. The route takes the client address from a test header (app.request has no peer);
// a real app reads it with the trusted-proxy rules (createClientAddressReader).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, createManualClock, defineController, defineModule, inProcessPubSub, jsonLogger, post, type PubSub } from '../../index.js';
import { InMemoryRefreshTokenStore } from '../sessions/issuing/index.js';
import { InMemoryCredentialStore } from '../sessions/issuing/in-memory-credential-store.js';
import { AuthConfigError, defineAuthModule, type AuthModuleOptions } from '../index.js';
import { recordingCounters } from './sign-in-throttle.test-helper.js';

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256!';
const Claims = z.object({ sub: z.string(), roles: z.array(z.string()) });
type Claims = z.output<typeof Claims>;
const NOW = Date.parse('2026-11-26T12:00:00Z');
const SignInBody = z.object({ identifier: z.string(), password: z.string() });

class Accounts extends InMemoryCredentialStore<Claims> {
  constructor() {
    super([{ identifier: 'alice@acme.test', subject: 'u_alice', passwordHash: 'hashed:alice-password', claims: { sub: 'u_alice', roles: [] } }]);
  }
}

async function setup(throttle?: AuthModuleOptions<Claims>['signInThrottle'], app: { pubsub?: PubSub } = {}) {
  const verified = { count: 0 };
  const lines: Record<string, unknown>[] = [];
  const passwordHasher = {
    hash: async (password: string) => `hashed:${password}`,
    verify: async (password: string, phc: string) => {
      verified.count++;
      return phc === `hashed:${password}`;
    },
  };
  const auth = defineAuthModule(Claims);
  const clock = createManualClock(NOW);
  const controller = defineController({
    name: 'SignIn',
    inject: [auth.AUTH_SERVICE],
    routes: (service) => ({
      signIn: post('/auth/sign-in', { body: SignInBody }, async (ctx) => {
        const pair = await service.signIn(ctx.body.identifier, ctx.body.password, { clientAddress: ctx.header('x-test-client-address') ?? undefined });
        return { signedIn: pair.accessToken.length > 0 };
      }),
    }),
  });
  const application = await createApp(
    defineModule({
      name: 'Root',
      imports: [auth.AuthModule.forRoot({ secret: SECRET, clock, issuing: { credentialStore: Accounts, refreshTokenStore: InMemoryRefreshTokenStore, passwordHasher }, signInThrottle: throttle })],
      controllers: [controller],
    }),
    { logger: jsonLogger({ write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) }), ...app },
  );
  const signIn = (identifier: string, password: string, address = '203.0.113.7') =>
    application.request('/auth/sign-in', { method: 'POST', headers: { 'content-type': 'application/json', 'x-test-client-address': address }, body: JSON.stringify({ identifier, password }) });
  return { app: application, clock, verified, lines, signIn };
}

async function answer(response: Response) {
  return { status: response.status, retryAfter: response.headers.get('retry-after'), type: response.headers.get('content-type'), body: await response.json() };
}

describe('signInThrottle through AuthModule.forRoot', () => {
  it('is on by default: 5 failures, then 429 problem with Retry-After, without checking the password', async () => {
    const { signIn, verified } = await setup();
    for (let i = 0; i < 5; i++) expect((await signIn('alice@acme.test', 'wrong')).status, `failure ${i + 1}`).toBe(401);
    const refused = await answer(await signIn('alice@acme.test', 'alice-password'));
    expect(refused).toMatchObject({ status: 429, retryAfter: '60', type: expect.stringContaining('application/problem+json') as unknown });
    expect(refused.body).toMatchObject({ status: 429, detail: 'Too many failed sign-ins. Try again later.' });
    expect(verified.count, 'the 6th password was not checked').toBe(5);
  });

  it('answers an unknown account exactly as an existing one', async () => {
    const run = async (identifier: string) => {
      const { signIn } = await setup();
      const answers = [];
      for (let i = 0; i < 7; i++) answers.push(await answer(await signIn(identifier, 'wrong')));
      return answers;
    };
    const existing = await run('alice@acme.test');
    expect(await run('nobody@acme.test')).toEqual(existing);
    expect(existing.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });

  it('lets the right password in from the same address once the window has ended', async () => {
    const { signIn, clock } = await setup();
    for (let i = 0; i < 5; i++) await signIn('alice@acme.test', 'wrong');
    clock.advance(60_000);
    expect((await signIn('alice@acme.test', 'alice-password')).status).toBe(200);
  });

  it('is off with signInThrottle: false', async () => {
    const { signIn } = await setup(false);
    for (let i = 0; i < 10; i++) expect((await signIn('alice@acme.test', 'wrong')).status).toBe(401);
  });

  it('counts on the counters it is given, one per tier', async () => {
    const { counters, calls } = recordingCounters();
    const { signIn } = await setup({ counters, perAccountAndAddress: [{ failures: 2, windowSeconds: 30 }], perAddress: [], perAccount: [] });
    await signIn('alice@acme.test', 'wrong');
    await signIn('alice@acme.test', 'wrong');
    expect((await signIn('alice@acme.test', 'alice-password')).headers.get('retry-after')).toBe('30');
    expect(new Set(calls.map((call) => call.name))).toEqual(new Set(['sign-in-account-address-30s']));
  });

  it('warns at boot when it counts in memory while the app shares a PubSub engine (several instances likely)', async () => {
    const shared: PubSub = { ...inProcessPubSub(), listening: () => true };
    const { lines } = await setup(undefined, { pubsub: shared });
    expect(lines.filter((line) => line.event === 'auth.sign-in.throttle-in-memory' && line.level === 'warn')).toHaveLength(1);
    const single = await setup();
    expect(single.lines.filter((line) => line.event === 'auth.sign-in.throttle-in-memory'), 'not with the in-process engine').toHaveLength(0);
  });

  it('refuses the option without issuing, and bad tiers, at forRoot', () => {
    const auth = defineAuthModule(Claims);
    expect(() => auth.AuthModule.forRoot({ secret: SECRET, signInThrottle: {} })).toThrow(AuthConfigError);
    const issuing = { credentialStore: Accounts, refreshTokenStore: InMemoryRefreshTokenStore };
    expect(() => auth.AuthModule.forRoot({ secret: SECRET, issuing, signInThrottle: { perAddress: [{ failures: 0, windowSeconds: 60 }] } })).toThrow(RangeError);
    expect(() => auth.AuthModule.forRoot({ secret: SECRET, issuing, signInThrottle: { perAccount: [{ failures: 5, windowSeconds: 60 }, { failures: 9, windowSeconds: 60 }] } })).toThrow(RangeError);
  });
});
