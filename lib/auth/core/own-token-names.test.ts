// iss and aud are signed and checked on the app's own tokens by default (ASVS 5.0 9.2.3): a minimal
// app that issues tokens refuses a token minted with its secret by another service, which sets no
// iss/aud or its own.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, defineController, defineModule, get, post, silentLogger, systemClock } from '../../index.js';
import { send } from '../../../test/http-helpers.js';
import { defineAuthModule, InMemoryCredentialStore, InMemoryRefreshTokenStore } from '../index.js';
import { createTokenSigner } from '../credentials/jwt/index.js';
import { DEFAULT_OWN_AUDIENCE, DEFAULT_OWN_ISSUER } from '../credentials/jwt/own-token-names.js';

const SECRET = 'a-secret-shared-by-two-services-0123456789';
const Claims = z.object({ sub: z.string(), roles: z.array(z.string()) });
const passwordHasher = { hash: async (password: string) => `plain:${password}`, verify: async (password: string, phc: string) => phc === `plain:${password}` };

/** A minimal app: issuing, no issuer or audience configured (or the ones given). */
async function minimalApp(names: { issuer?: string; audience?: string } = {}, issuing = true) {
  const auth = defineAuthModule(Claims);
  const Accounts = class extends InMemoryCredentialStore<z.output<typeof Claims>> {
    constructor() {
      super([{ identifier: 'alice@acme.test', subject: 'u_alice', passwordHash: 'plain:pw', claims: { sub: 'u_alice', roles: ['member'] } }]);
    }
  };
  const routes = defineController({
    name: 'Routes',
    inject: issuing ? [auth.AUTH_SERVICE] : [],
    routes: (...deps: unknown[]) => ({
      me: get('/me', { guards: [auth.JwtAuthGuard] }, (ctx) => auth.getCurrentUser(ctx)),
      ...(issuing ? { signIn: post('/sign-in', () => (deps[0] as { signIn(i: string, p: string): Promise<unknown> }).signIn('alice@acme.test', 'pw')) } : {}),
    }),
  });
  const app = await createApp(
    defineModule({
      name: 'Root',
      imports: [auth.AuthModule.forRoot({ secret: SECRET, ...names, ...(issuing ? { issuing: { credentialStore: Accounts, refreshTokenStore: InMemoryRefreshTokenStore, passwordHasher } } : {}) })],
      controllers: [routes],
    }),
    { logger: silentLogger },
  );
  return app;
}

/** A token another service mints with the same secret and its own names (none by default). */
function foreignToken(names: { issuer?: string; audience?: string } = {}): string {
  const signer = createTokenSigner({ secret: SECRET, algorithm: 'HS256', clock: systemClock, ...names });
  return signer.sign({ sub: 'u_alice', roles: ['admin'] }, { ttlSeconds: 900, type: 'access' }).token;
}

const payloadOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()) as { iss?: string; aud?: string };
const me = async (app: Awaited<ReturnType<typeof minimalApp>>, token: string) => (await send(app, 'GET', '/me', { headers: { authorization: `Bearer ${token}` } })).status;

describe('own tokens: iss and aud by default', () => {
  it('a minimal app signs iss and aud into its tokens and accepts them', async () => {
    const app = await minimalApp();
    const { accessToken } = (await send(app, 'POST', '/sign-in')).json as { accessToken: string };
    expect(payloadOf(accessToken), 'the defaults signed in').toMatchObject({ iss: DEFAULT_OWN_ISSUER, aud: DEFAULT_OWN_AUDIENCE });
    expect(await me(app, accessToken)).toBe(200);
  });

  it('refuses a token another service minted with the shared secret and no iss or aud', async () => {
    expect(await me(await minimalApp(), foreignToken())).toBe(401);
  });

  it("refuses a token another service minted with the shared secret and its own iss and aud", async () => {
    expect(await me(await minimalApp(), foreignToken({ issuer: 'billing', audience: 'billing-api' }))).toBe(401);
  });

  it('configured names win over the defaults', async () => {
    const app = await minimalApp({ issuer: 'shop', audience: 'shop-api' });
    expect(await me(app, foreignToken({ issuer: 'shop', audience: 'shop-api' })), 'its own names').toBe(200);
    expect(await me(app, foreignToken({ issuer: DEFAULT_OWN_ISSUER, audience: DEFAULT_OWN_AUDIENCE })), 'the defaults are not its names').toBe(401);
  });

  it('a verify-only module (no issuing) checks only what it is told: the tokens are another service\'s', async () => {
    expect(await me(await minimalApp({}, false), foreignToken())).toBe(200);
  });
});
