import { SignJWT, decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../../common/clock.js';
import { createAccessTokenVerifier } from './access-token-verifier.js';
import { AuthConfigError } from '../../shared/auth-config-error.js';
import { SECRET_256, SECRET_384, SECRET_512, T0, T0_MS, macSegment } from './craft-token.test-helper.js';
import type { HmacAlgorithm } from './hmac-algorithm.js';
import { createTokenSigner } from './token-signer.js';

const SECRETS: Record<HmacAlgorithm, string> = { HS256: SECRET_256, HS384: SECRET_384, HS512: SECRET_512 };
const ALGORITHMS = ['HS256', 'HS384', 'HS512'] as const;

function decodePayload(token: string): Record<string, unknown> {
  const segment = token.split('.')[1] ?? '';
  const binary = atob(segment.replace(/-/g, '+').replace(/_/g, '/'));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))) as Record<string, unknown>;
}

describe('createTokenSigner', () => {
  it('writes alg and typ only, iat/exp from the clock, iss/aud when configured, and a random jti', () => {
    const clock = createManualClock(T0_MS + 999); // sub-second part is floored away
    const signer = createTokenSigner({ secret: SECRET_256, algorithm: 'HS256', issuer: 'https://id.example', audience: ['api', 'admin'], clock });
    const { token, expiresAt } = signer.sign({ sub: 'user-1', roles: ['admin'] }, { ttlSeconds: 900, type: 'access' });
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'at+jwt' });
    const payload = decodePayload(token);
    expect(payload).toMatchObject({ sub: 'user-1', roles: ['admin'], iss: 'https://id.example', aud: ['api', 'admin'], iat: T0, exp: T0 + 900 });
    expect(payload.jti).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(expiresAt).toEqual(new Date((T0 + 900) * 1000));
    const second = signer.sign({ sub: 'user-1' }, { ttlSeconds: 900, type: 'access' });
    expect(decodePayload(second.token).jti).not.toBe(payload.jti);
  });

  it('omits iss and aud when not configured', () => {
    const signer = createTokenSigner({ secret: SECRET_256, algorithm: 'HS256', clock: createManualClock(T0_MS) });
    const payload = decodePayload(signer.sign({ sub: 'u' }, { ttlSeconds: 60, type: 'access' }).token);
    expect(Object.keys(payload).sort()).toEqual(['exp', 'iat', 'jti', 'sub']);
  });

  it('signs with exactly the MAC an independent HMAC computes', () => {
    const signer = createTokenSigner({ secret: SECRET_384, algorithm: 'HS384', clock: createManualClock(T0_MS) });
    const { token } = signer.sign({ sub: 'u' }, { ttlSeconds: 60, type: 'access' });
    const dot = token.lastIndexOf('.');
    expect(token.slice(dot + 1)).toBe(macSegment(token.slice(0, dot), SECRET_384, 384));
  });

  it('does not let caller claims override the claims it owns', () => {
    const signer = createTokenSigner({ secret: SECRET_256, algorithm: 'HS256', issuer: 'https://id.example', clock: createManualClock(T0_MS) });
    const hostile = { sub: 'u', exp: T0 + 10 ** 9, iat: 0, nbf: 0, jti: 'fixed', iss: 'https://evil.example', aud: 'elsewhere' };
    const payload = decodePayload(signer.sign(hostile, { ttlSeconds: 60, type: 'access' }).token);
    expect(payload.exp).toBe(T0 + 60);
    expect(payload.iat).toBe(T0);
    expect(payload.iss).toBe('https://id.example');
    expect(payload).not.toHaveProperty('aud');
    expect(payload).not.toHaveProperty('nbf');
    expect(payload.jti).not.toBe('fixed');
  });

  it('writes a distinct typ for refresh tokens', () => {
    const signer = createTokenSigner({ secret: SECRET_256, algorithm: 'HS256', clock: createManualClock(T0_MS) });
    expect(decodeProtectedHeader(signer.sign({}, { ttlSeconds: 60, type: 'refresh' }).token).typ).toBe('rt+jwt');
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses ttlSeconds %s', (ttlSeconds) => {
    const signer = createTokenSigner({ secret: SECRET_256, algorithm: 'HS256', clock: createManualClock(T0_MS) });
    expect(() => signer.sign({}, { ttlSeconds, type: 'access' })).toThrow(RangeError);
  });

  it('refuses an unknown type, non-object claims and a __proto__ claim', () => {
    const signer = createTokenSigner({ secret: SECRET_256, algorithm: 'HS256', clock: createManualClock(T0_MS) });
    expect(() => signer.sign({}, { ttlSeconds: 60, type: 'id' as 'access' })).toThrow(TypeError);
    expect(() => signer.sign({}, { ttlSeconds: 60, type: 'toString' as 'access' })).toThrow(TypeError);
    expect(() => signer.sign([] as unknown as Record<string, unknown>, { ttlSeconds: 60, type: 'access' })).toThrow(TypeError);
    expect(() => signer.sign(JSON.parse('{"__proto__":{"admin":true}}') as Record<string, unknown>, { ttlSeconds: 60, type: 'access' })).toThrow(TypeError);
  });

  it.each(ALGORITHMS)('refuses a %s secret below the minimum', (algorithm) => {
    const min = { HS256: 32, HS384: 48, HS512: 64 }[algorithm];
    expect(() => createTokenSigner({ secret: 'ü'.repeat(min / 2 - 1), algorithm, clock: createManualClock(0) })).toThrow(AuthConfigError);
    expect(() => createTokenSigner({ secret: 'ü'.repeat(min / 2), algorithm, clock: createManualClock(0) })).not.toThrow();
  });
});

describe('interoperability with jose', () => {
  it.each(ALGORITHMS)('%s: our tokens verify with jose jwtVerify (typ, iss, aud checked by jose)', async (algorithm) => {
    const clock = createManualClock(T0_MS);
    const secret = SECRETS[algorithm];
    const signer = createTokenSigner({ secret, algorithm, issuer: 'https://id.example', audience: 'api', clock });
    const { token } = signer.sign({ sub: 'user-1', name: 'Zoë 😀' }, { ttlSeconds: 900, type: 'access' });
    const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: [algorithm],
      typ: 'at+jwt',
      issuer: 'https://id.example',
      audience: 'api',
      currentDate: new Date(clock.now()),
      requiredClaims: ['exp', 'iat', 'jti'],
    });
    expect(protectedHeader).toEqual({ alg: algorithm, typ: 'at+jwt' });
    expect(payload).toMatchObject({ sub: 'user-1', name: 'Zoë 😀', exp: T0 + 900 });
  });

  it.each(ALGORITHMS)('%s: jose SignJWT tokens verify with our verifier', async (algorithm) => {
    const clock = createManualClock(T0_MS);
    const secret = SECRETS[algorithm];
    const token = await new SignJWT({ sub: 'user-1', roles: ['admin'], name: 'Zoë 😀' })
      .setProtectedHeader({ alg: algorithm, typ: 'at+jwt' })
      .setIssuedAt(T0)
      .setExpirationTime(T0 + 900)
      .setNotBefore(T0)
      .setIssuer('https://id.example')
      .setAudience(['api', 'other'])
      .setJti('jti-1')
      .sign(new TextEncoder().encode(secret));
    for (const cache of [false, undefined] as const) {
      const verifier = createAccessTokenVerifier({ secret, algorithm, issuer: 'https://id.example', audience: 'api', clock, cache });
      const result = await verifier.verify(token);
      expect(result).toEqual({ ok: true, payload: expect.objectContaining({ sub: 'user-1', roles: ['admin'], name: 'Zoë 😀', jti: 'jti-1' }) });
    }
  });

  it('a jose token with the default JWT typ verifies (any standard library interoperates)', async () => {
    const clock = createManualClock(T0_MS);
    const token = await new SignJWT({ sub: 'user-1' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setExpirationTime(T0 + 900)
      .sign(new TextEncoder().encode(SECRET_256));
    const verifier = createAccessTokenVerifier({ secret: SECRET_256, algorithm: 'HS256', clock });
    expect(verifier.verifySync(token)).toMatchObject({ ok: true, payload: { sub: 'user-1' } });
    const strict = createAccessTokenVerifier({ secret: SECRET_256, algorithm: 'HS256', clock, requireAccessTokenType: true });
    expect(strict.verifySync(token)).toEqual({ ok: false, reason: 'wrong_type' });
  });
});
