import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, createManualClock, defineController, defineModule, get } from '../../index.js';
import { send } from '../../../test/http-helpers.js';
import { defineAuthModule, getAccountId, getPrincipal } from '../index.js';
import { makeIssuerKey, signWith, type IssuerKey } from '../credentials/jwt/outside-issuer.test-helper.js';

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256!';
const OWN = 'https://api.example';
const IDP = 'https://tenant.idp.example/';
const NOW = Date.parse('2026-11-21T12:00:00Z');
const Claims = z.object({ sub: z.string(), roles: z.array(z.string()) });

let rsa: IssuerKey;
beforeAll(async () => {
  rsa = await makeIssuerKey('RS256', 'rsa-1');
});

async function setup() {
  const auth = defineAuthModule(Claims);
  const controller = defineController({
    name: 'Things',
    routes: () => ({
      who: get('/who', { guards: [auth.JwtAuthGuard] }, (ctx) => ({ principal: getPrincipal(ctx), accountId: getAccountId(ctx) ?? null })),
      account: get('/account', { guards: [auth.AccountGuard] }, (ctx) => ({ accountId: getAccountId(ctx) })),
    }),
  });
  const app = await createApp(
    defineModule({
      name: 'Root',
      imports: [auth.AuthModule.forRoot({ secret: SECRET, issuer: OWN, audience: OWN, clock: createManualClock(NOW), trustedIssuers: [{ issuer: IDP, audience: OWN, jwks: { keys: [rsa.jwk] } }] })],
      controllers: [controller],
    }),
  );
  return app;
}

const ownToken = (sub: string) =>
  new SignJWT({ sub, roles: [], sid: 'session-1' }).setProtectedHeader({ alg: 'HS256' }).setIssuer(OWN).setAudience(OWN).setExpirationTime(NOW / 1000 + 600).sign(new TextEncoder().encode(SECRET));
const outsideToken = (sub: string) => signWith(rsa, { iss: IDP, aud: OWN, sub, roles: [], exp: NOW / 1000 + 600 });
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

describe('the principal: who authenticated, with its issuer (ASVS 6.8.1)', () => {
  it('records an own token as a session of the app, with its issuer and session', async () => {
    const app = await setup();
    const who = await send(app, 'GET', '/who', bearer(await ownToken('bob')));
    expect(who.json).toEqual({ principal: { kind: 'session', issuer: OWN, subject: 'bob', sessionId: 'session-1' }, accountId: 'bob' });
  });

  it('records a trusted issuer\'s token as outside, with that issuer, and answers no account for it', async () => {
    const app = await setup();
    const who = await send(app, 'GET', '/who', bearer(await outsideToken('bob')));
    expect(who.json).toEqual({ principal: { kind: 'outside', issuer: IDP, subject: 'bob' }, accountId: null });
  });

  it('AccountGuard admits the app\'s own session and refuses the provider\'s token for the same sub (401)', async () => {
    const app = await setup();
    expect((await send(app, 'GET', '/account', bearer(await ownToken('bob')))).json).toEqual({ accountId: 'bob' });
    const outside = await send(app, 'GET', '/account', bearer(await outsideToken('bob')));
    expect(outside.status, 'a provider token for sub "bob" acted as local bob').toBe(401);
    expect(outside.headers.get('www-authenticate')).toBe('Bearer');
  });
});
