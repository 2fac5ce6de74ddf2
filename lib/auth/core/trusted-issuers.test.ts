import { SignJWT } from 'jose';
import { openTelemetry } from '../../otel/index.js';
import { startTestSdk } from '../../otel/test-sdk.test-helper.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, createManualClock, defineController, defineModule, get, type AppOptions } from '../../index.js';
import { send } from '../../../test/http-helpers.js';
import { AuthConfigError, defineAuthModule, Roles, type TrustedIssuerOptions } from '../index.js';
import { makeIssuerKey, signWith, startJwksServer } from '../credentials/jwt/outside-issuer.test-helper.js';
import type { IssuerKey } from '../credentials/jwt/outside-issuer.test-helper.js';

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256!';
const OWN = 'https://api.example';
const IDP = 'https://tenant.idp.example/';
const AUDIENCE = 'https://api.example';
const NOW = Date.parse('2026-11-21T12:00:00Z');
const Claims = z.object({ sub: z.string(), roles: z.array(z.string()) });

let rsa: IssuerKey;
let ed: IssuerKey;
beforeAll(async () => {
  [rsa, ed] = await Promise.all([makeIssuerKey('RS256', 'rsa-1'), makeIssuerKey('EdDSA', 'ed-1')]);
});

function idpClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { iss: IDP, aud: AUDIENCE, sub: 'idp|bob', roles: ['editor'], iat: NOW / 1000, exp: NOW / 1000 + 600, ...overrides };
}

function bearer(token: string): { headers: Record<string, string> } {
  return { headers: { authorization: `Bearer ${token}` } };
}

async function setup(issuer: Partial<TrustedIssuerOptions> = {}, extra: { clockToleranceSeconds?: number } = {}, appOptions: AppOptions = {}) {
  const auth = defineAuthModule(Claims);
  const clock = createManualClock(NOW);
  const controller = defineController({
    name: 'Things',
    routes: () => ({
      me: get('/me', { guards: [auth.JwtAuthGuard] }, (ctx) => auth.getCurrentUser(ctx)),
      edit: get('/edit', { guards: [auth.AuthGuard], metadata: [Roles('editor')] }, (ctx) => ({ editor: auth.getCurrentUser(ctx)?.sub })),
      admin: get('/admin', { guards: [auth.JwtAuthGuard, auth.createRolesGuard('admin')] }, () => 'admin'),
    }),
  });
  const trusted = { issuer: IDP, audience: AUDIENCE, jwks: { keys: [rsa.jwk, ed.jwk] }, ...issuer } as TrustedIssuerOptions;
  const module = defineModule({
    name: 'Root',
    imports: [auth.AuthModule.forRoot({ secret: SECRET, issuer: OWN, clock, trustedIssuers: [trusted], ...extra })],
    controllers: [controller],
  });
  return { app: await createApp(module, appOptions), clock };
}

describe('AuthModule with trusted issuers', () => {
  it('puts an outside token\'s claims where getCurrentUser reads them', async () => {
    const { app } = await setup();
    const res = await send(app, 'GET', '/me', bearer(await signWith(rsa, idpClaims())));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ sub: 'idp|bob', roles: ['editor'] });
  });

  it('applies Roles to outside tokens: 200 with the role, 403 without', async () => {
    const { app } = await setup();
    expect((await send(app, 'GET', '/edit', bearer(await signWith(ed, idpClaims())))).status).toBe(200);
    expect((await send(app, 'GET', '/admin', bearer(await signWith(ed, idpClaims())))).status).toBe(403);
  });

  it('answers the one bearer 401 for an outside token failing the claims schema', async () => {
    const { app } = await setup();
    const res = await send(app, 'GET', '/me', bearer(await signWith(rsa, idpClaims({ roles: 'editor' }))));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('keeps accepting the app\'s own tokens, including a plain jose token with typ JWT', async () => {
    const { app } = await setup();
    const own = await new SignJWT({ sub: 'u1', roles: ['admin'] })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(OWN)
      .setIssuedAt(NOW / 1000)
      .setExpirationTime(NOW / 1000 + 60)
      .sign(new TextEncoder().encode(SECRET));
    expect((await send(app, 'GET', '/admin', bearer(own))).status).toBe(200);
  });

  it('refuses an HS256 token with the app\'s secret claiming the outside issuer', async () => {
    const { app } = await setup();
    const forged = await new SignJWT(idpClaims({ roles: ['admin'] })).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(SECRET));
    expect((await send(app, 'GET', '/admin', bearer(forged))).status).toBe(401);
  });

  it('gives every refusal the same body, own or outside', async () => {
    const { app } = await setup();
    const bodies = new Set<string>();
    for (const token of [
      await signWith(rsa, idpClaims({ aud: 'another-api' })),
      await signWith(rsa, idpClaims({ iss: 'https://unknown.example/' })),
      await signWith(rsa, idpClaims(), { kid: 'unknown' }),
      await signWith(rsa, idpClaims({ exp: NOW / 1000 })),
      'a.b.c',
    ]) {
      const res = await send(app, 'GET', '/me', bearer(token));
      expect(res.status).toBe(401);
      bodies.add(res.text);
    }
    expect(bodies.size).toBe(1);
  });

  it('honours clockToleranceSeconds for outside tokens', async () => {
    const { app, clock } = await setup({}, { clockToleranceSeconds: 10 });
    const token = await signWith(rsa, idpClaims({ exp: NOW / 1000 + 5 }));
    clock.advance(14_999);
    expect((await send(app, 'GET', '/me', bearer(token))).status).toBe(200);
    clock.advance(1);
    expect((await send(app, 'GET', '/me', bearer(token))).status).toBe(401);
  });

  it('reads keys from a JWKS endpoint', async () => {
    const server = await startJwksServer([rsa.jwk]);
    try {
      const { app } = await setup({ jwks: undefined, jwksUrl: server.url });
      expect((await send(app, 'GET', '/me', bearer(await signWith(rsa, idpClaims())))).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('traces a JWKS fetch as a jwks.fetch span naming the endpoint, in the app\u2019s tracer provider', async () => {
    const sdk = startTestSdk();
    const server = await startJwksServer([rsa.jwk]);
    try {
      const { app } = await setup({ jwks: undefined, jwksUrl: server.url }, {}, { instrumentation: openTelemetry({ tracerProvider: sdk.tracerProvider }) });
      expect((await send(app, 'GET', '/me', bearer(await signWith(rsa, idpClaims())))).status).toBe(200);
      const fetches = sdk.spans().filter((span) => span.name === 'jwks.fetch');
      expect(fetches.length, 'one span per key-set fetch').toBeGreaterThan(0);
      expect(fetches[0]?.attributes['url.full']).toBe(String(server.url));
    } finally {
      await server.close();
      await sdk.stop();
    }
  });

  it('fails forRoot for a misconfigured issuer, and the boot for a PEM that is not a key', async () => {
    const auth = defineAuthModule(Claims);
    expect(() => auth.AuthModule.forRoot({ secret: SECRET, trustedIssuers: [{ issuer: IDP, audience: AUDIENCE, jwksUrl: 'https://x.example/jwks', algorithms: ['HS256' as never] }] })).toThrow(AuthConfigError);
    expect(() => auth.AuthModule.forRoot({ secret: SECRET, clockToleranceSeconds: -1 })).toThrow(AuthConfigError);
    const module = defineModule({
      name: 'Root',
      imports: [auth.AuthModule.forRoot({ secret: SECRET, trustedIssuers: [{ issuer: IDP, audience: AUDIENCE, publicKeys: [rsa.pem.replace(/[A-Za-z]{8}/, 'AAAAAAAA')] }] })],
    });
    await expect(createApp(module)).rejects.toThrow(AuthConfigError);
  });
});
