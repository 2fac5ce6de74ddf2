import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../../common/clock.js';
import { createAccessTokenVerifier } from './access-token-verifier.js';
import { MAX_TOKEN_LENGTH } from './verification-front.js';
import type { AccessTokenVerifierOptions } from './access-token-verifier.js';
import { AuthConfigError } from '../../shared/auth-config-error.js';
import {
  GOOD_HEADER,
  SECRET_256,
  SECRET_512,
  T0,
  T0_MS,
  craft,
  craftRaw,
  goodPayload,
  macSegment,
  part,
} from './craft-token.test-helper.js';
import { createTokenSigner } from './token-signer.js';
import type { VerificationResult } from './verification-result.js';

type CacheOption = AccessTokenVerifierOptions['cache'];

function setup(cache: CacheOption, overrides: Partial<AccessTokenVerifierOptions> = {}) {
  const clock = createManualClock(T0_MS);
  const verifier = createAccessTokenVerifier({ secret: SECRET_256, algorithm: 'HS256', clock, cache, ...overrides });
  return { clock, verifier };
}

function reasonOf(result: VerificationResult): string {
  return result.ok ? 'ok' : result.reason;
}

// Every attack runs with the cache off and on: failures must never depend on, or enter, the cache.
describe.each<[string, CacheOption]>([
  ['cache off', false],
  ['cache on', undefined],
])('access token verifier (%s)', (_label, cache) => {
  describe('accepts', () => {
    it('a token from the signer, returning the decoded payload', async () => {
      const { clock, verifier } = setup(cache);
      const signer = createTokenSigner({ secret: SECRET_256, algorithm: 'HS256', clock });
      const { token } = signer.sign({ sub: 'user-1', roles: ['admin'] }, { ttlSeconds: 900, type: 'access' });
      const result = await verifier.verify(token);
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.payload).toMatchObject({ sub: 'user-1', roles: ['admin'], iat: T0, exp: T0 + 900 });
      expect(typeof result.payload.jti).toBe('string');
      expect(verifier.verifySync(token)).toEqual(result);
    });

    it.each(['at+jwt', 'AT+JWT', 'At+Jwt', 'application/at+jwt', 'Application/AT+JWT'])('typ %s', (typ) => {
      const { verifier } = setup(cache);
      expect(reasonOf(verifier.verifySync(craft({ alg: 'HS256', typ }, goodPayload())))).toBe('ok');
    });

    it('a payload that is deep-frozen', () => {
      const { verifier } = setup(cache);
      const result = verifier.verifySync(craft(GOOD_HEADER, goodPayload({ nested: { list: [1] } })));
      if (!result.ok) throw new Error('expected ok');
      expect(Object.isFrozen(result.payload)).toBe(true);
      expect(Object.isFrozen(result.payload.roles)).toBe(true);
      expect(Object.isFrozen((result.payload.nested as { list: unknown }).list)).toBe(true);
      expect(() => {
        (result.payload as Record<string, unknown>).sub = 'someone-else';
      }).toThrow(TypeError);
    });
  });

  describe('refuses algorithm attacks', () => {
    it('alg none with an empty signature', () => {
      const { verifier } = setup(cache);
      const unsigned = `${part({ alg: 'none', typ: 'at+jwt' })}.${part(goodPayload())}.`;
      expect(reasonOf(verifier.verifySync(unsigned))).toBe('bad_signature');
      // and without the trailing dot
      expect(reasonOf(verifier.verifySync(unsigned.slice(0, -1)))).toBe('malformed');
    });

    it.each(['none', 'None', 'NONE', 'hs256', 'HS384', 'HS512', 'RS256', 'ES256', 'PS256', ''])(
      'alg %j even when the HMAC-SHA256 with the secret is correct',
      (alg) => {
        const { verifier } = setup(cache);
        expect(reasonOf(verifier.verifySync(craft({ alg, typ: 'at+jwt' }, goodPayload())))).toBe('algorithm_mismatch');
      },
    );

    it('a missing or non-string alg', () => {
      const { verifier } = setup(cache);
      expect(reasonOf(verifier.verifySync(craft({ typ: 'at+jwt' }, goodPayload())))).toBe('algorithm_mismatch');
      expect(reasonOf(verifier.verifySync(craft({ alg: ['HS256'], typ: 'at+jwt' }, goodPayload())))).toBe('algorithm_mismatch');
    });

    it('a token genuinely signed with HS512 (same secret) when HS256 is configured', () => {
      const { verifier } = setup(cache, { secret: SECRET_512 });
      const hs512 = craft({ alg: 'HS512', typ: 'at+jwt' }, goodPayload(), SECRET_512, 512);
      expect(reasonOf(verifier.verifySync(hs512))).toBe('bad_signature');
      // Truncating the longer MAC to HS256 size does not help either.
      const truncated = hs512.slice(0, hs512.lastIndexOf('.') + 44);
      expect(verifier.verifySync(truncated).ok).toBe(false);
    });

    it('an HS256 token when HS512 is configured', () => {
      const { verifier } = setup(cache, { secret: SECRET_512, algorithm: 'HS512' });
      expect(reasonOf(verifier.verifySync(craft(GOOD_HEADER, goodPayload(), SECRET_512, 256)))).toBe('bad_signature');
      expect(reasonOf(verifier.verifySync(craft({ alg: 'HS512', typ: 'at+jwt' }, goodPayload(), SECRET_512, 512)))).toBe('ok');
    });
  });

  describe('refuses forbidden header parameters', () => {
    it.each([
      ['crit naming an unknown extension', { crit: ['tessera-ext'], 'tessera-ext': 1 }],
      ['crit naming a registered claim', { crit: ['exp'] }],
      ['crit that is empty', { crit: [] }],
      ['crit with b64 false (RFC 7797)', { crit: ['b64'], b64: false }],
      ['embedded jwk', { jwk: { kty: 'oct', k: 'AAAA' } }],
      ['jku', { jku: 'https://attacker.example/keys.json' }],
      ['x5u', { x5u: 'https://attacker.example/cert.pem' }],
      ['x5c', { x5c: ['MIIB'] }],
    ])('%s', (_name, extra) => {
      const { verifier } = setup(cache);
      expect(reasonOf(verifier.verifySync(craft({ ...GOOD_HEADER, ...extra }, goodPayload())))).toBe('forbidden_header');
    });

    it('but ignores kid, since no key is ever looked up', () => {
      const { verifier } = setup(cache);
      expect(reasonOf(verifier.verifySync(craft({ ...GOOD_HEADER, kid: '../../etc/passwd' }, goodPayload())))).toBe('ok');
    });
  });

  describe('accepts the generic JWT types by default', () => {
    it.each([
      ['missing', { alg: 'HS256' }],
      ['JWT', { alg: 'HS256', typ: 'JWT' }],
      ['jwt', { alg: 'HS256', typ: 'jwt' }],
      ['application/jwt', { alg: 'HS256', typ: 'application/jwt' }],
    ])('typ %s', (_name, header) => {
      const { verifier } = setup(cache);
      expect(reasonOf(verifier.verifySync(craft(header, goodPayload())))).toBe('ok');
    });

    it.each([
      ['missing', { alg: 'HS256' }],
      ['JWT', { alg: 'HS256', typ: 'JWT' }],
    ])('but not typ %s when requireAccessTokenType is set', (_name, header) => {
      const clock = createManualClock(T0_MS);
      const verifier = createAccessTokenVerifier({ secret: SECRET_256, algorithm: 'HS256', clock, cache, requireAccessTokenType: true });
      expect(reasonOf(verifier.verifySync(craft(header, goodPayload())))).toBe('wrong_type');
    });

    it('and at+jwt when requireAccessTokenType is set', () => {
      const clock = createManualClock(T0_MS);
      const verifier = createAccessTokenVerifier({ secret: SECRET_256, algorithm: 'HS256', clock, cache, requireAccessTokenType: true });
      expect(reasonOf(verifier.verifySync(craft({ alg: 'HS256', typ: 'AT+JWT' }, goodPayload())))).toBe('ok');
    });
  });

  describe('refuses the wrong token type', () => {
    it.each([
      ['refresh', { alg: 'HS256', typ: 'rt+jwt' }],
      ['ID token style', { alg: 'HS256', typ: 'id_token+jwt' }],
      ['padded', { alg: 'HS256', typ: ' at+jwt' }],
      ['suffixed', { alg: 'HS256', typ: 'at+jwt; charset=utf-8' }],
      ['other media prefix', { alg: 'HS256', typ: 'text/at+jwt' }],
      ['non-string', { alg: 'HS256', typ: ['at+jwt'] }],
      ['null', { alg: 'HS256', typ: null }],
      ['DPoP proof', { alg: 'HS256', typ: 'dpop+jwt' }],
      ['JWT with a suffix', { alg: 'HS256', typ: 'JWT2' }],
    ])('typ %s', (_name, header) => {
      const { verifier } = setup(cache);
      expect(reasonOf(verifier.verifySync(craft(header, goodPayload())))).toBe('wrong_type');
    });

    it('a refresh token made by the signer', () => {
      const { clock, verifier } = setup(cache);
      const signer = createTokenSigner({ secret: SECRET_256, algorithm: 'HS256', clock });
      const { token } = signer.sign({ sub: 'user-1' }, { ttlSeconds: 900, type: 'refresh' });
      expect(reasonOf(verifier.verifySync(token))).toBe('wrong_type');
    });
  });

  describe('time', () => {
    it('refuses at exactly exp and accepts one second (and one millisecond) before', () => {
      const { clock, verifier } = setup(cache);
      const token = craft(GOOD_HEADER, goodPayload({ exp: T0 + 60 }));
      clock.set((T0 + 59) * 1000);
      expect(reasonOf(verifier.verifySync(token))).toBe('ok');
      clock.set((T0 + 60) * 1000 - 1);
      expect(reasonOf(verifier.verifySync(token))).toBe('ok');
      clock.set((T0 + 60) * 1000);
      expect(reasonOf(verifier.verifySync(token))).toBe('expired');
      clock.set((T0 + 61) * 1000);
      expect(reasonOf(verifier.verifySync(token))).toBe('expired');
    });

    it('refuses a token that is already expired on first sight', () => {
      const { verifier } = setup(cache);
      expect(reasonOf(verifier.verifySync(craft(GOOD_HEADER, goodPayload({ exp: T0 }))))).toBe('expired');
      expect(reasonOf(verifier.verifySync(craft(GOOD_HEADER, goodPayload({ exp: T0 - 3600 }))))).toBe('expired');
    });

    it('applies clockToleranceSeconds to exp and nbf', () => {
      const { clock, verifier } = setup(cache, { clockToleranceSeconds: 30 });
      const token = craft(GOOD_HEADER, goodPayload({ exp: T0 + 60, nbf: T0 + 10 }));
      clock.set((T0 - 20) * 1000);
      expect(reasonOf(verifier.verifySync(token))).toBe('ok');
      clock.set((T0 - 21) * 1000);
      expect(reasonOf(verifier.verifySync(token))).toBe('not_yet_valid');
      clock.set((T0 + 89) * 1000);
      expect(reasonOf(verifier.verifySync(token))).toBe('ok');
      clock.set((T0 + 90) * 1000);
      expect(reasonOf(verifier.verifySync(token))).toBe('expired');
    });

    it.each([
      ['missing', {}],
      ['a string', { exp: String(T0 + 900) }],
      ['null', { exp: null }],
      ['an array', { exp: [T0 + 900] }],
    ])('refuses exp %s', (_name, exp) => {
      const { verifier } = setup(cache);
      const payload = goodPayload();
      delete payload.exp;
      expect(reasonOf(verifier.verifySync(craft(GOOD_HEADER, { ...payload, ...exp })))).toBe('invalid_claims');
    });

    it('refuses nbf in the future until the clock reaches it', () => {
      const { clock, verifier } = setup(cache);
      const token = craft(GOOD_HEADER, goodPayload({ nbf: T0 + 10 }));
      expect(reasonOf(verifier.verifySync(token))).toBe('not_yet_valid');
      clock.set((T0 + 10) * 1000 - 1);
      expect(reasonOf(verifier.verifySync(token))).toBe('not_yet_valid');
      clock.set((T0 + 10) * 1000);
      expect(reasonOf(verifier.verifySync(token))).toBe('ok');
    });

    it.each([
      ['nbf', { nbf: 'now' }],
      ['iat', { iat: 'yesterday' }],
      ['iss', { iss: 42 }],
      ['sub', { sub: { id: 1 } }],
      ['jti', { jti: 7 }],
      ['aud', { aud: ['api', 3] }],
    ])('refuses an ill-typed %s', (_name, extra) => {
      const { verifier } = setup(cache);
      expect(reasonOf(verifier.verifySync(craft(GOOD_HEADER, goodPayload(extra))))).toBe('invalid_claims');
    });
  });

  describe('issuer and audience', () => {
    it('requires a matching iss when configured', () => {
      const { verifier } = setup(cache, { issuer: 'https://id.example' });
      expect(reasonOf(verifier.verifySync(craft(GOOD_HEADER, goodPayload({ iss: 'https://id.example' }))))).toBe('ok');
      expect(reasonOf(verifier.verifySync(craft(GOOD_HEADER, goodPayload({ iss: 'https://evil.example' }))))).toBe('issuer_mismatch');
      expect(reasonOf(verifier.verifySync(craft(GOOD_HEADER, goodPayload({ iss: 'https://id.example/' }))))).toBe('issuer_mismatch');
      expect(reasonOf(verifier.verifySync(craft(GOOD_HEADER, goodPayload())))).toBe('issuer_mismatch');
    });

    it('requires a matching aud when configured as a string', () => {
      const { verifier } = setup(cache, { audience: 'api' });
      expect(reasonOf(verifier.verifySync(craft(GOOD_HEADER, goodPayload({ aud: 'api' }))))).toBe('ok');
      expect(reasonOf(verifier.verifySync(craft(GOOD_HEADER, goodPayload({ aud: ['other', 'api'] }))))).toBe('ok');
      expect(reasonOf(verifier.verifySync(craft(GOOD_HEADER, goodPayload({ aud: 'API' }))))).toBe('audience_mismatch');
      expect(reasonOf(verifier.verifySync(craft(GOOD_HEADER, goodPayload({ aud: ['other'] }))))).toBe('audience_mismatch');
      expect(reasonOf(verifier.verifySync(craft(GOOD_HEADER, goodPayload({ aud: [] }))))).toBe('audience_mismatch');
      expect(reasonOf(verifier.verifySync(craft(GOOD_HEADER, goodPayload())))).toBe('audience_mismatch');
    });

    it('accepts any overlap when configured as an array', () => {
      const { verifier } = setup(cache, { audience: ['api', 'admin-api'] });
      expect(reasonOf(verifier.verifySync(craft(GOOD_HEADER, goodPayload({ aud: 'admin-api' }))))).toBe('ok');
      expect(reasonOf(verifier.verifySync(craft(GOOD_HEADER, goodPayload({ aud: ['x', 'api'] }))))).toBe('ok');
      expect(reasonOf(verifier.verifySync(craft(GOOD_HEADER, goodPayload({ aud: ['x', 'y'] }))))).toBe('audience_mismatch');
    });
  });

  describe('refuses tampering', () => {
    it('a modified payload under the original signature', () => {
      const { verifier } = setup(cache);
      const [header, , signature] = craft(GOOD_HEADER, goodPayload({ roles: ['reader'] })).split('.');
      const forged = `${header}.${part(goodPayload({ roles: ['admin'] }))}.${signature}`;
      expect(reasonOf(verifier.verifySync(forged))).toBe('bad_signature');
    });

    it('a modified signature', () => {
      const { verifier } = setup(cache);
      const token = craft(GOOD_HEADER, goodPayload());
      const at = token.lastIndexOf('.') + 10;
      const flipped = token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1);
      expect(reasonOf(verifier.verifySync(flipped))).toBe('bad_signature');
    });

    it('a non-canonical spelling of the correct signature', () => {
      const { verifier } = setup(cache);
      const token = craft(GOOD_HEADER, goodPayload());
      // 32 bytes use 256 of the last group's 258 bits; setting an unused low bit keeps the bytes.
      const last = token.at(-1) ?? '';
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const variant = token.slice(0, -1) + alphabet[alphabet.indexOf(last) | 1];
      expect(variant).not.toBe(token);
      expect(reasonOf(verifier.verifySync(variant))).toBe('malformed');
    });

    it('a token MACed with another secret', () => {
      const { verifier } = setup(cache);
      expect(reasonOf(verifier.verifySync(craft(GOOD_HEADER, goodPayload(), `${SECRET_256}!`)))).toBe('bad_signature');
    });
  });

  describe('refuses malformed input', () => {
    const good = craft(GOOD_HEADER, goodPayload());
    const [h = '', p = '', s = ''] = good.split('.');

    it.each([
      ['empty', ''],
      ['one segment', h],
      ['two segments', `${h}.${p}`],
      ['two dots only', '..'],
      ['four segments', `${good}.${s}`],
      ['five segments (JWE shape)', `${h}.${p}.${s}.${s}.${s}`],
      ['leading space', ` ${good}`],
      ['trailing newline', `${good}\n`],
      ['padding on the signature', `${good}=`],
      ['padding on the header', `${h}=.${p}.${s}`],
      ['standard base64 characters', `${h.replace(/_/g, '/').replace(/-/g, '+')}x+.${p}.${s}`],
      ['a space inside the payload', `${h}.${p.slice(0, 5)} ${p.slice(5)}.${s}`],
      ['a non-ASCII character', `${h}.${p}é.${s}`],
      ['oversized', `${h}.${'A'.repeat(MAX_TOKEN_LENGTH)}.${s}`],
    ])('%s', (_name, token) => {
      const { verifier } = setup(cache);
      const result = verifier.verifySync(token);
      expect(result.ok).toBe(false);
    });

    it('reports malformed for well-MACed segments that do not decode to a JSON object', () => {
      const { verifier } = setup(cache);
      const cases = [
        craftRaw(part('not json', true), part(goodPayload()), SECRET_256), // header not JSON
        craftRaw(part(GOOD_HEADER), part('not json', true), SECRET_256), // payload not JSON
        craft(GOOD_HEADER, [goodPayload()]), // payload an array
        craft(GOOD_HEADER, null),
        craft(GOOD_HEADER, 'a string'),
        craft(GOOD_HEADER, 42),
        craft([GOOD_HEADER], goodPayload()), // header an array
        craftRaw(`${part(GOOD_HEADER)}=`, part(goodPayload()), SECRET_256), // padding, correctly MACed
        craftRaw(part(GOOD_HEADER), `${part(goodPayload())}\u00e9`, SECRET_256),
        craftRaw('', part(goodPayload()), SECRET_256),
        craftRaw(part(GOOD_HEADER), '', SECRET_256),
      ];
      for (const [index, token] of cases.entries()) expect([index, reasonOf(verifier.verifySync(token))]).toEqual([index, 'malformed']);
    });

    it('refuses invalid UTF-8 in the payload', () => {
      const { verifier } = setup(cache);
      const json = new TextEncoder().encode(JSON.stringify(goodPayload({ name: 'XX' })));
      const at = json.indexOf('X'.charCodeAt(0));
      json[at] = 0xc3; // a lead byte followed by 'X': invalid UTF-8
      let binary = '';
      for (const byte of json) binary += String.fromCharCode(byte);
      const payloadSegment = btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      expect(reasonOf(verifier.verifySync(craftRaw(part(GOOD_HEADER), payloadSegment, SECRET_256)))).toBe('malformed');
    });

    it('refuses __proto__ keys and absurd nesting', () => {
      const { verifier } = setup(cache);
      const proto = craftRaw(part(GOOD_HEADER), part(`{"exp":${T0 + 900},"__proto__":{"admin":true}}`, true), SECRET_256);
      expect(reasonOf(verifier.verifySync(proto))).toBe('malformed');
      const nested = craftRaw(part(GOOD_HEADER), part(`{"exp":${T0 + 900},"x":${'['.repeat(100)}${']'.repeat(100)}}`, true), SECRET_256);
      expect(reasonOf(verifier.verifySync(nested))).toBe('malformed');
    });

    it('reads claims and header parameters as own properties only (prototype pollution)', () => {
      const { verifier } = setup(cache);
      const payload = goodPayload();
      delete payload.exp;
      const noExp = craft(GOOD_HEADER, payload);
      const noTyp = craft({ alg: 'HS256' }, goodPayload());
      const prototype = Object.prototype as Record<string, unknown>;
      let results: string[];
      try {
        prototype.exp = T0 + 10_000;
        prototype.typ = 'rt+jwt';
        results = [reasonOf(verifier.verifySync(noExp)), reasonOf(verifier.verifySync(noTyp))];
      } finally {
        delete prototype.exp;
        delete prototype.typ;
      }
      expect(results, 'a polluted exp or typ on Object.prototype was read as the token\'s own').toEqual(['invalid_claims', 'ok']);
    });

    it('refuses non-string input from untyped callers', () => {
      const { verifier } = setup(cache);
      expect(reasonOf(verifier.verifySync(undefined as unknown as string))).toBe('malformed');
      expect(reasonOf(verifier.verifySync(42 as unknown as string))).toBe('malformed');
    });

    it('never puts a failure in the cache', () => {
      const { verifier } = setup(cache);
      verifier.verifySync(craft({ alg: 'none' }, goodPayload()));
      verifier.verifySync(craft(GOOD_HEADER, goodPayload({ exp: T0 })));
      verifier.verifySync('garbage');
      expect(verifier.stats().size).toBe(0);
    });
  });
});

describe('createAccessTokenVerifier configuration', () => {
  const clock = createManualClock(T0_MS);

  it.each([
    ['HS256', 31],
    ['HS384', 47],
    ['HS512', 63],
  ] as const)('refuses a %s secret of %i bytes', (algorithm, bytes) => {
    expect(() => createAccessTokenVerifier({ secret: 'k'.repeat(bytes), algorithm, clock })).toThrow(AuthConfigError);
    expect(() => createAccessTokenVerifier({ secret: 'k'.repeat(bytes + 1), algorithm, clock })).not.toThrow();
  });

  it.each<[string, Partial<AccessTokenVerifierOptions>]>([
    ['an unsupported algorithm', { algorithm: 'RS256' as 'HS256' }],
    ['an empty issuer', { issuer: '' }],
    ['an empty audience list', { audience: [] }],
    ['an empty audience entry', { audience: ['api', ''] }],
    ['a negative tolerance', { clockToleranceSeconds: -1 }],
    ['a non-finite tolerance', { clockToleranceSeconds: Number.POSITIVE_INFINITY }],
    ['a zero-size cache', { cache: { maxEntries: 0 } }],
    ['a fractional cache size', { cache: { maxEntries: 1.5 } }],
    ['no clock', { clock: undefined as unknown as AccessTokenVerifierOptions['clock'] }],
  ])('refuses %s', (_name, overrides) => {
    expect(() => createAccessTokenVerifier({ secret: SECRET_256, algorithm: 'HS256', clock, ...overrides })).toThrow(AuthConfigError);
  });

  it('does not put the secret in configuration errors', () => {
    const secret = 'short-secret-value';
    try {
      createAccessTokenVerifier({ secret, algorithm: 'HS256', clock });
      expect.unreachable();
    } catch (err) {
      expect((err as Error).message).not.toContain(secret);
    }
  });

  it('matches the independent MAC helper on a known token', () => {
    const input = `${part(GOOD_HEADER)}.${part(goodPayload())}`;
    const token = `${input}.${macSegment(input, SECRET_256)}`;
    const verifier = createAccessTokenVerifier({ secret: SECRET_256, algorithm: 'HS256', clock, cache: false });
    expect(verifier.verifySync(token).ok).toBe(true);
  });
});
