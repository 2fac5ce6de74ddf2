import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, createManualClock, defineModule, silentLogger, type App } from '../../index.js';
import { defineAuthModule, type TrustedIssuerOptions } from '../index.js';
import { makeIssuerKey, startJwksServer, type IssuerKey, type JwksServer } from '../credentials/jwt/outside-issuer.test-helper.js';

const IDP = 'https://tenant.idp.example/';
const NOW = Date.parse('2026-11-25T12:00:00Z');
const Claims = z.object({ sub: z.string() });

let rsa: IssuerKey;
let jwksServer: JwksServer | undefined;
beforeAll(async () => {
  rsa = await makeIssuerKey('RS256', 'rsa-1');
});
afterEach(async () => {
  await jwksServer?.close();
  jwksServer = undefined;
});

async function appTrusting(issuer: Partial<TrustedIssuerOptions>) {
  const auth = defineAuthModule(Claims);
  const clock = createManualClock(NOW);
  const trusted = { issuer: IDP, audience: 'api', ...issuer } as TrustedIssuerOptions;
  const module = defineModule({ name: 'Root', imports: [auth.AuthModule.forRoot({ secret: 'a-test-secret-that-is-long-enough-for-hs256!', clock, trustedIssuers: [trusted] })] });
  const app = await createApp(module, { logger: silentLogger, health: { checks: [auth.JWKS_HEALTH_CHECK] } });
  return { app, clock };
}

async function readiness(app: App): Promise<{ status: number; body: { status: string; checks: Record<string, { status: string; reason?: string }> } }> {
  const res = await app.request('/health/ready');
  return { status: res.status, body: (await res.json()) as never };
}

describe('the jwks readiness check of the auth module', () => {
  it('is up when the issuer\u2019s JWKS endpoint answers', async () => {
    jwksServer = await startJwksServer([rsa.jwk]);
    const { app } = await appTrusting({ jwksUrl: jwksServer.url });
    const { status, body } = await readiness(app);
    expect(status, 'readiness with a reachable JWKS').toBe(200);
    expect(body.checks.jwks?.status).toBe('up');
  });

  it('is down (503) while the endpoint has never answered, naming no key or URL in the public answer', async () => {
    jwksServer = await startJwksServer([rsa.jwk]);
    jwksServer.setMode('down');
    const { app } = await appTrusting({ jwksUrl: jwksServer.url });
    const res = await app.request('/health/ready');
    const text = await res.text();
    expect(res.status, 'readiness with an unreachable JWKS').toBe(503);
    expect(JSON.parse(text).checks.jwks).toMatchObject({ status: 'down', reason: 'failed' });
    expect(text, 'the public answer says nothing about where the keys come from').not.toContain('127.0.0.1');
  });

  it('asks a down endpoint at most once per cooldown however often it is probed, and turns up once it answers', async () => {
    jwksServer = await startJwksServer([rsa.jwk]);
    jwksServer.setMode('down');
    const { app, clock } = await appTrusting({ jwksUrl: jwksServer.url, jwksCooldownSeconds: 30 });
    for (let probe = 0; probe < 5; probe++) expect((await readiness(app)).status).toBe(503);
    expect(jwksServer.hits(), 'five probes within the cooldown make one request').toBe(1);
    jwksServer.setMode('up');
    expect((await readiness(app)).status, 'still within the cooldown: not asked again').toBe(503);
    clock.advance(30_000);
    expect((await readiness(app)).status, 'after the cooldown the endpoint is asked and answers').toBe(200);
    expect(jwksServer.hits()).toBe(2);
  });

  it('stays up through a later outage of the provider: the fetched keys keep verifying', async () => {
    jwksServer = await startJwksServer([rsa.jwk]);
    const { app, clock } = await appTrusting({ jwksUrl: jwksServer.url, jwksMaxAgeSeconds: 60 });
    expect((await readiness(app)).status).toBe(200);
    jwksServer.setMode('down');
    clock.advance(3_600_000);
    expect((await readiness(app)).status, 'an hour into the outage, the instance can still verify known keys').toBe(200);
  });

  it('is up for static keys without any request', async () => {
    const { app } = await appTrusting({ jwks: { keys: [rsa.jwk] } });
    expect((await readiness(app)).status).toBe(200);
  });
});
