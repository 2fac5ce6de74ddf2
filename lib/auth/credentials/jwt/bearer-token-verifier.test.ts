import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createManualClock } from '../../../common/clock.js';
import { AuthConfigError } from '../../shared/auth-config-error.js';
import { createBearerTokenVerifier } from './bearer-token-verifier.js';
import type { BearerTokenVerifier, BearerTokenVerifierOptions } from './bearer-token-verifier.js';
import { SECRET_256, T0, T0_MS, craft, part } from './craft-token.test-helper.js';
import { makeIssuerKey, signWith, startJwksServer } from './outside-issuer.test-helper.js';
import type { IssuerKey, JwksServer } from './outside-issuer.test-helper.js';
import type { TrustedIssuerOptions } from './trusted-issuer-options.js';
import type { VerificationResult } from './verification-result.js';

const IDP = 'https://idp.example/';
const OTHER_IDP = 'https://other-idp.example/';
const OWN = 'https://api.example';
const AUDIENCE = 'https://api.example/v1';

let rsa: IssuerKey;
let ec: IssuerKey;
let ed: IssuerKey;
let rotated: IssuerKey;
let otherIdpKey: IssuerKey;
let server: JwksServer;

beforeAll(async () => {
  [rsa, ec, ed, rotated, otherIdpKey] = await Promise.all([
    makeIssuerKey('RS256', 'rsa-1'),
    makeIssuerKey('ES256', 'ec-1'),
    makeIssuerKey('EdDSA', 'ed-1'),
    makeIssuerKey('RS256', 'rsa-2'),
    makeIssuerKey('RS256', 'other-1'),
  ]);
  server = await startJwksServer([rsa.jwk, ec.jwk, ed.jwk]);
});

afterAll(async () => {
  await server.close();
});

function claims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { iss: IDP, aud: AUDIENCE, sub: 'idp|alice', roles: ['reader'], iat: T0, exp: T0 + 900, ...overrides };
}

async function settle(result: VerificationResult | Promise<VerificationResult>): Promise<string> {
  const settled = await result;
  return settled.ok ? 'ok' : settled.reason;
}

interface Setup {
  readonly verifier: BearerTokenVerifier;
  readonly clock: ReturnType<typeof createManualClock>;
}

function setup(issuer: Partial<TrustedIssuerOptions> = {}, extra: Partial<BearerTokenVerifierOptions> = {}, more: TrustedIssuerOptions[] = []): Setup {
  const clock = createManualClock(T0_MS);
  const verifier = createBearerTokenVerifier({
    own: { secret: SECRET_256, algorithm: 'HS256', issuer: OWN },
    trustedIssuers: [{ issuer: IDP, audience: AUDIENCE, jwksUrl: server.url, ...issuer } as TrustedIssuerOptions, ...more],
    clock,
    ...extra,
  });
  return { verifier, clock };
}

/** A JWKS server of its own, so request counts are not shared between tests. */
async function withServer<T>(keys: IssuerKey[], run: (local: JwksServer) => Promise<T>): Promise<T> {
  const local = await startJwksServer(keys.map((key) => key.jwk));
  try {
    return await run(local);
  } finally {
    await local.close();
  }
}

describe('outside issuers: accepted tokens', () => {
  it.each(['rsa', 'ec', 'ed'] as const)('accepts a %s token from the JWKS endpoint', async (name) => {
    const key = { rsa, ec, ed }[name];
    const { verifier } = setup();
    expect(await settle(verifier.verify(await signWith(key, claims())))).toBe('ok');
  });

  it('hands back the payload, frozen', async () => {
    const { verifier } = setup();
    const result = await verifier.verify(await signWith(rsa, claims()));
    expect(result.ok && result.payload.sub).toBe('idp|alice');
    expect(result.ok && Object.isFrozen(result.payload)).toBe(true);
  });

  it('accepts tokens against a static JWKS without any request', async () => {
    const before = server.hits();
    const { verifier } = setup({ jwksUrl: undefined, jwks: { keys: [ec.jwk] } });
    expect(await settle(verifier.verify(await signWith(ec, claims())))).toBe('ok');
    expect(server.hits(), 'a static key set was fetched').toBe(before);
  });

  it('accepts tokens against PEM public keys, whatever their kid', async () => {
    const { verifier } = setup({ jwksUrl: undefined, publicKeys: [rsa.pem, ed.pem] });
    await verifier.prepare();
    expect(await settle(verifier.verify(await signWith(ed, claims())))).toBe('ok');
    expect(await settle(verifier.verify(await signWith(rsa, claims(), { kid: 'not-in-any-pem' })))).toBe('ok');
    expect(await settle(verifier.verify(await signWith(rotated, claims())))).toBe('bad_signature');
  });

  it('tries each key when a token has no kid and several keys fit', async () => {
    const { verifier } = setup({ jwksUrl: undefined, jwks: { keys: [rotated.jwk, rsa.jwk].map(({ kid: _kid, ...jwk }) => jwk) } });
    expect(await settle(verifier.verify(await signWith(rsa, claims(), { kid: undefined })))).toBe('ok');
  });

  it.each([['absent', undefined], ['JWT', 'JWT'], ['at+jwt', 'at+jwt'], ['application/at+jwt', 'application/at+jwt']])('accepts typ %s', async (_name, typ) => {
    const { verifier } = setup();
    expect(await settle(verifier.verify(await signWith(rsa, claims(), { typ })))).toBe('ok');
  });

  it.each([['rt+jwt'], ['id_token+jwt'], ['dpop+jwt']])('refuses typ %s', async (typ) => {
    const { verifier } = setup();
    expect(await settle(verifier.verify(await signWith(rsa, claims(), { typ })))).toBe('wrong_type');
  });

  it('refuses typ JWT from an issuer set to requireAccessTokenType, and accepts at+jwt', async () => {
    const { verifier } = setup({ requireAccessTokenType: true });
    expect(await settle(verifier.verify(await signWith(rsa, claims(), { typ: 'JWT' })))).toBe('wrong_type');
    expect(await settle(verifier.verify(await signWith(rsa, claims(), { typ: 'at+jwt' })))).toBe('ok');
  });

  it('keeps accepting the app\'s own HS256 tokens beside the outside issuer, synchronously', () => {
    const { verifier } = setup();
    const own = craft({ alg: 'HS256', typ: 'at+jwt' }, { iss: OWN, sub: 'u1', exp: T0 + 900 });
    const result = verifier.verify(own);
    expect(result instanceof Promise, 'an own token needed a promise').toBe(false);
    expect((result as VerificationResult).ok).toBe(true);
  });

  it('answers a cached outside token synchronously', async () => {
    const { verifier } = setup();
    const token = await signWith(ec, claims());
    expect(await settle(verifier.verify(token))).toBe('ok');
    const again = verifier.verify(token);
    expect(again instanceof Promise, 'a cache hit needed a promise').toBe(false);
    expect(verifier.stats().hits).toBe(1);
  });
});

describe('forgetting cached verifications', () => {
  it('drops exactly the cached tokens whose payload matches, which are then verified afresh', () => {
    const { verifier } = setup();
    const revoked = craft({ alg: 'HS256', typ: 'at+jwt' }, { iss: OWN, sub: 'u1', sid: 's1', exp: T0 + 900 });
    const kept = craft({ alg: 'HS256', typ: 'at+jwt' }, { iss: OWN, sub: 'u1', sid: 's2', exp: T0 + 900 });
    verifier.verify(revoked);
    verifier.verify(kept);
    expect(verifier.forget((payload) => payload.sid === 's1'), 'how many were dropped').toBe(1);
    expect(verifier.stats().size, 'the other one stays cached').toBe(1);
    verifier.verify(revoked);
    expect(verifier.stats().hits, 'the forgotten token was a miss').toBe(0);
  });
});

describe('outside issuers: refused tokens', () => {
  it('refuses alg none claiming the issuer, without a JWKS request', async () => {
    const before = server.hits();
    const { verifier } = setup();
    const unsigned = `${part({ alg: 'none', typ: 'JWT' })}.${part(claims())}.`;
    expect(await settle(verifier.verify(unsigned))).toBe('algorithm_mismatch');
    expect(server.hits()).toBe(before);
  });

  it('refuses an HS256 token MACed with the issuer\'s public key (algorithm confusion)', async () => {
    const { verifier } = setup({ jwksUrl: undefined, publicKeys: [rsa.pem] });
    await verifier.prepare();
    for (const secret of [rsa.pem, JSON.stringify(rsa.jwk), rsa.jwk.n ?? '']) {
      const forged = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', kid: rsa.kid }).sign(new TextEncoder().encode(secret));
      expect(await settle(verifier.verify(forged)), `HS256 with ${secret.slice(0, 20)} as the secret`).toBe('algorithm_mismatch');
    }
  });

  it('refuses an HS256 token signed with the app\'s own secret that claims the outside issuer', async () => {
    const { verifier } = setup();
    const forged = craft({ alg: 'HS256', typ: 'at+jwt' }, claims());
    expect(await settle(verifier.verify(forged))).toBe('algorithm_mismatch');
  });

  it('refuses an algorithm the issuer is not pinned to', async () => {
    const { verifier } = setup({ algorithms: ['RS256'] });
    expect(await settle(verifier.verify(await signWith(ec, claims())))).toBe('algorithm_mismatch');
  });

  it('refuses a token of an unknown issuer, even one signed by a listed key', async () => {
    const { verifier } = setup();
    expect(await settle(verifier.verify(await signWith(rsa, claims({ iss: 'https://evil.example/' }))))).toBe('bad_signature');
    expect(await settle(verifier.verify(await signWith(rsa, claims({ iss: undefined }))))).toBe('bad_signature');
  });

  it('refuses a token signed by one issuer\'s key that names another issuer', async () => {
    const other: TrustedIssuerOptions = { issuer: OTHER_IDP, audience: AUDIENCE, jwks: { keys: [otherIdpKey.jwk] } };
    const { verifier } = setup({ jwksUrl: undefined, jwks: { keys: [rsa.jwk] } }, {}, [other]);
    expect(await settle(verifier.verify(await signWith(otherIdpKey, claims({ iss: OTHER_IDP }))))).toBe('ok');
    expect(await settle(verifier.verify(await signWith(otherIdpKey, claims({ iss: IDP }))))).toBe('key_unavailable');
    expect(await settle(verifier.verify(await signWith(rsa, claims({ iss: OTHER_IDP }))))).toBe('key_unavailable');
  });

  it('refuses it even when the other issuer publishes a key under the same kid', async () => {
    const other: TrustedIssuerOptions = { issuer: OTHER_IDP, audience: AUDIENCE, jwks: { keys: [{ ...otherIdpKey.jwk, kid: rsa.kid }] } };
    const { verifier } = setup({ jwksUrl: undefined, jwks: { keys: [rsa.jwk] } }, {}, [other]);
    expect(await settle(verifier.verify(await signWith(rsa, claims())))).toBe('ok');
    expect(await settle(verifier.verify(await signWith(rsa, claims({ iss: OTHER_IDP }))))).toBe('bad_signature');
  });

  it('refuses the wrong audience, and a token without one', async () => {
    const { verifier } = setup();
    expect(await settle(verifier.verify(await signWith(rsa, claims({ aud: 'https://another-api.example' }))))).toBe('audience_mismatch');
    expect(await settle(verifier.verify(await signWith(rsa, claims({ aud: undefined }))))).toBe('audience_mismatch');
  });

  it('accepts any audience, or none, with audience: false', async () => {
    const { verifier } = setup({ audience: false });
    expect(await settle(verifier.verify(await signWith(rsa, claims({ aud: undefined }))))).toBe('ok');
  });

  it('refuses a token without exp, and one with key-injection headers', async () => {
    const { verifier } = setup();
    expect(await settle(verifier.verify(await signWith(rsa, claims({ exp: undefined }))))).toBe('invalid_claims');
    expect(await settle(verifier.verify(await signWith(rsa, claims(), { jku: 'https://evil.example/jwks' })))).toBe('forbidden_header');
    expect(await settle(verifier.verify(await signWith(rsa, claims(), { jwk: rsa.jwk })))).toBe('forbidden_header');
  });

  it('refuses a token whose signature was altered', async () => {
    const { verifier } = setup();
    const token = await signWith(ec, claims());
    const flipped = token.slice(0, -2) + (token.endsWith('AA') ? 'AQ' : 'AA');
    expect(await settle(verifier.verify(flipped))).not.toBe('ok');
  });
});

describe('clock tolerance, for every issuer and on cache hits', () => {
  const TOLERANCE = 30;

  it.each([
    ['an outside token', async () => signWith(rsa, claims({ exp: T0 + 60 }))],
    ['an own token', async () => craft({ alg: 'HS256', typ: 'at+jwt' }, { iss: OWN, sub: 'u1', iat: T0, exp: T0 + 60 })],
  ])('accepts %s until exp + tolerance, then refuses it (cold and cached)', async (_name, make) => {
    const token = await make();
    for (const cache of [false, undefined] as const) {
      const { verifier, clock } = setup({}, { clockToleranceSeconds: TOLERANCE, cache });
      expect(await settle(verifier.verify(token))).toBe('ok');
      clock.set((T0 + 60 + TOLERANCE) * 1000 - 1);
      expect(await settle(verifier.verify(token)), `one ms before the boundary, cache ${String(cache)}`).toBe('ok');
      clock.set((T0 + 60 + TOLERANCE) * 1000);
      expect(await settle(verifier.verify(token)), `at the boundary, cache ${String(cache)}`).toBe('expired');
    }
  });

  it('refuses at exactly exp without tolerance', async () => {
    const token = await signWith(rsa, claims({ exp: T0 + 60 }));
    const { verifier, clock } = setup();
    clock.set((T0 + 60) * 1000);
    expect(await settle(verifier.verify(token))).toBe('expired');
  });

  it.each([['nbf'], ['iat']])('accepts %s up to the tolerance in the future, not beyond', async (claim) => {
    const { verifier } = setup({}, { clockToleranceSeconds: TOLERANCE, cache: false });
    expect(await settle(verifier.verify(await signWith(rsa, claims({ [claim]: T0 + TOLERANCE }))))).toBe('ok');
    expect(await settle(verifier.verify(await signWith(rsa, claims({ [claim]: T0 + TOLERANCE + 1 }))))).toBe('not_yet_valid');
  });
});

describe('JWKS endpoint: rotation, unknown kids, outages', () => {
  it('fetches the key set once for many tokens', async () => {
    await withServer([rsa, ec], async (local) => {
      const { verifier } = setup({ jwksUrl: local.url });
      for (const key of [rsa, ec, rsa]) expect(await settle(verifier.verify(await signWith(key, claims({ jti: key.kid }))))).toBe('ok');
      expect(local.hits()).toBe(1);
    });
  });

  it('picks up a rotated-in key with one refetch on its unknown kid', async () => {
    await withServer([rsa], async (local) => {
      const { verifier, clock } = setup({ jwksUrl: local.url });
      expect(await settle(verifier.verify(await signWith(rsa, claims())))).toBe('ok');
      local.setKeys([rsa.jwk, rotated.jwk]);
      clock.advance(30_000);
      expect(await settle(verifier.verify(await signWith(rotated, claims())))).toBe('ok');
      expect(local.hits()).toBe(2);
    });
  });

  it('refetches at most once per cooldown however many forged kids arrive', async () => {
    await withServer([rsa], async (local) => {
      const { verifier, clock } = setup({ jwksUrl: local.url, jwksCooldownSeconds: 30 });
      expect(await settle(verifier.verify(await signWith(rsa, claims())))).toBe('ok');
      clock.advance(30_000);
      const forged = await Promise.all(Array.from({ length: 20 }, (_, i) => signWith(rsa, claims({ jti: `f${i}` }), { kid: `forged-${i}` })));
      const reasons = await Promise.all(forged.map((token) => settle(verifier.verify(token))));
      expect(new Set(reasons)).toEqual(new Set(['key_unavailable']));
      expect(local.hits(), 'forged kids caused more than one refetch').toBe(2);
      clock.advance(29_999);
      expect(await settle(verifier.verify(await signWith(rsa, claims(), { kid: 'forged-again' })))).toBe('key_unavailable');
      expect(local.hits()).toBe(2);
      clock.advance(1);
      expect(await settle(verifier.verify(await signWith(rsa, claims(), { kid: 'forged-later' })))).toBe('key_unavailable');
      expect(local.hits()).toBe(3);
    });
  });

  it('keeps known keys verifying while the endpoint is down, and refuses unknown kids', async () => {
    await withServer([rsa], async (local) => {
      const { verifier, clock } = setup({ jwksUrl: local.url, jwksMaxAgeSeconds: 600 });
      expect(await settle(verifier.verify(await signWith(rsa, claims({ jti: 'a' }))))).toBe('ok');
      local.setMode('down');
      clock.advance(700_000);
      const tokenAfterOutage = await signWith(rsa, claims({ jti: 'b', iat: T0 + 700, exp: T0 + 1600 }));
      expect(await settle(verifier.verify(tokenAfterOutage)), 'a known key stopped verifying during the outage').toBe('ok');
      // The refresh runs in the background: wait for its request rather than for a fixed time.
      await vi.waitFor(() => expect(local.hits(), 'no background refresh was attempted after max age').toBe(2));
      const unknown = await signWith(rotated, claims({ iat: T0 + 700, exp: T0 + 1600 }));
      expect(await settle(verifier.verify(unknown))).toBe('key_unavailable');
      clock.advance(31_000);
      expect(await settle(verifier.verify(unknown))).toBe('key_unavailable');
      expect(local.hits(), 'an unknown kid during the outage did not cause exactly one more request').toBe(3);
    });
  });

  it('drops a key the provider removed, once a refresh succeeds', async () => {
    await withServer([rsa, rotated], async (local) => {
      const { verifier, clock } = setup({ jwksUrl: local.url, jwksMaxAgeSeconds: 600 }, { cache: false });
      expect(await settle(verifier.verify(await signWith(rotated, claims())))).toBe('ok');
      local.setKeys([rsa.jwk]);
      clock.advance(600_000);
      // This verification starts the background refresh (and is answered from the old set).
      const later = claims({ iat: T0 + 600, exp: T0 + 1500 });
      expect(await settle(verifier.verify(await signWith(rotated, later)))).toBe('ok');
      const removed = await signWith(rotated, { ...later, jti: 'after-refresh' });
      await vi.waitFor(async () => expect(await settle(verifier.verify(removed))).toBe('key_unavailable'));
      expect(local.hits()).toBe(2);
    });
  });

  it('refuses tokens while the endpoint has never answered, asking again only after the cooldown', async () => {
    await withServer([rsa], async (local) => {
      local.setMode('down');
      const { verifier, clock } = setup({ jwksUrl: local.url });
      const token = await signWith(rsa, claims());
      expect(await settle(verifier.verify(token))).toBe('key_unavailable');
      expect(await settle(verifier.verify(token))).toBe('key_unavailable');
      expect(local.hits()).toBe(1);
      local.setMode('up');
      clock.advance(30_000);
      expect(await settle(verifier.verify(token))).toBe('ok');
      expect(local.hits()).toBe(2);
    });
  });

  it('gives up on a JWKS request after the timeout', async () => {
    await withServer([rsa], async (local) => {
      local.setMode('hang');
      const { verifier } = setup({ jwksUrl: local.url, jwksTimeoutMs: 200 });
      const started = performance.now();
      expect(await settle(verifier.verify(await signWith(rsa, claims())))).toBe('key_unavailable');
      expect(performance.now() - started, 'the JWKS request was not cut off').toBeLessThan(3000);
    });
  });
});

describe('trusted issuer configuration', () => {
  const base = { issuer: IDP, audience: AUDIENCE, jwksUrl: 'https://idp.example/jwks' };
  it.each([
    ['an HMAC algorithm', { ...base, algorithms: ['HS256'] }],
    ['alg none', { ...base, algorithms: ['none'] }],
    ['no algorithms', { ...base, algorithms: [] }],
    ['plain http to a remote host', { ...base, jwksUrl: 'http://idp.example/jwks' }],
    ['no key source', { issuer: IDP, audience: AUDIENCE }],
    ['two key sources', { ...base, jwks: { keys: [] } }],
    ['no audience', { issuer: IDP, jwksUrl: base.jwksUrl }],
    ['an empty issuer', { ...base, issuer: '' }],
    ['a zero cooldown', { ...base, jwksCooldownSeconds: 0 }],
    ['PEM text that is not a public key', { issuer: IDP, audience: AUDIENCE, publicKeys: ['hello'] }],
  ])('refuses %s', (_name, issuer) => {
    expect(() => createBearerTokenVerifier({ own: { secret: SECRET_256, algorithm: 'HS256' }, trustedIssuers: [issuer as TrustedIssuerOptions], clock: createManualClock(0) })).toThrow(AuthConfigError);
  });

  it('refuses the same issuer twice, and an issuer equal to the app\'s own', () => {
    const clock = createManualClock(0);
    expect(() => createBearerTokenVerifier({ own: { secret: SECRET_256, algorithm: 'HS256' }, trustedIssuers: [base, base], clock })).toThrow(/listed twice/);
    expect(() => createBearerTokenVerifier({ own: { secret: SECRET_256, algorithm: 'HS256', issuer: IDP }, trustedIssuers: [base], clock })).toThrow(/own issuer/);
  });

  it('fails prepare for a PEM that is a key of another type than the algorithms', async () => {
    const verifier = createBearerTokenVerifier({
      own: { secret: SECRET_256, algorithm: 'HS256' },
      trustedIssuers: [{ issuer: IDP, audience: AUDIENCE, publicKeys: [ec.pem], algorithms: ['RS256'] }],
      clock: createManualClock(0),
    });
    await expect(verifier.prepare()).rejects.toThrow(AuthConfigError);
  });
});
