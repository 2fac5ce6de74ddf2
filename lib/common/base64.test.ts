import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64, encodeBase64 } from './base64.js';

const text = (value: string): Uint8Array => new TextEncoder().encode(value);
/** Node's encoder, the independent oracle (unpadded). */
const oracle = (bytes: Uint8Array, alphabet: 'url' | 'standard') => Buffer.from(bytes).toString(alphabet === 'url' ? 'base64url' : 'base64').replace(/=+$/, '');

describe('base64 (url alphabet, for JWTs, keys, cookies and ETags)', () => {
  it('round-trips every length from 0 to 40 and agrees with Buffer', () => {
    for (let length = 0; length <= 40; length++) {
      const bytes = crypto.getRandomValues(new Uint8Array(length));
      const encoded = encodeBase64(bytes);
      expect(encoded, `length ${length}`).toBe(oracle(bytes, 'url'));
      expect(decodeBase64(encoded)).toEqual(bytes);
    }
  });

  it.each([1_000, 4_097, 100_000, 1_048_576])('agrees with Buffer on %i bytes, in both alphabets', (length) => {
    const bytes = new Uint8Array(length);
    for (let at = 0; at < length; at += 65_536) crypto.getRandomValues(bytes.subarray(at, at + 65_536));
    expect(encodeBase64(bytes), `url, ${length} bytes`).toBe(oracle(bytes, 'url'));
    expect(encodeBase64(bytes, 'standard'), `standard, ${length} bytes`).toBe(oracle(bytes, 'standard'));
  });

  it('encodes the url alphabet by default', () => {
    expect(encodeBase64(text('{"alg":"HS256"}'))).toBe('eyJhbGciOiJIUzI1NiJ9');
    expect(encodeBase64(Uint8Array.of(0xfb, 0xff))).toBe('-_8');
  });

  it('decodes a range of a larger string', () => {
    expect(decodeBase64('xx.aGk.yy', 'url', 3, 6)).toEqual(new Uint8Array([104, 105]));
  });

  it.each([
    ['padding', 'aGk='],
    ['padding on a full group', 'aGVs='],
    ['standard alphabet +', 'a+k'],
    ['standard alphabet /', 'a/k'],
    ['whitespace', 'aG k'],
    ['newline', 'aGk\n'],
    ['length 1 mod 4', 'aGVsb'],
    ['non-zero trailing bits (2 chars)', 'aH'],
    ['non-zero trailing bits (3 chars)', 'aGl'],
    ['non-ASCII', 'aGé'],
    ['a dot', 'aG.k'],
  ])('refuses %s', (_name, input) => {
    expect(decodeBase64(input)).toBeUndefined();
  });
});

describe('base64 (standard alphabet, for PHC password hash strings)', () => {
  it('encodes without padding', () => {
    expect(encodeBase64(text('somesalt'), 'standard')).toBe('c29tZXNhbHQ');
    expect(encodeBase64(Uint8Array.of(0xfb, 0xff), 'standard')).toBe('+/8');
    expect(encodeBase64(new Uint8Array(0), 'standard')).toBe('');
  });

  it('agrees with Buffer base64 for every length 0..40', () => {
    for (let length = 0; length <= 40; length++) {
      const input = crypto.getRandomValues(new Uint8Array(length));
      const expected = oracle(input, 'standard');
      expect(encodeBase64(input, 'standard')).toBe(expected);
      expect(decodeBase64(expected, 'standard')).toEqual(input);
    }
  });

  it.each([
    ['padding', 'c29tZXNhbHQ='],
    ['URL-safe minus', 'c29tZXNhbH-'],
    ['URL-safe underscore', 'c29tZXNhbH_'],
    ['whitespace', 'c29tZXNh bHQ'],
    ['non-ASCII', 'c29tZXNhbHé'],
    ['impossible length', 'c29tZ'],
    ['non-zero unused bits', 'c29tZXNhbHR'],
  ])('refuses %s', (_name, input) => {
    expect(decodeBase64(input, 'standard')).toBeUndefined();
  });
});

describe('base64 properties against Buffer', () => {
  const alphabet = fc.constantFrom<'url' | 'standard'>('url', 'standard');

  it('decodes exactly what it encodes, and encodes as Buffer does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), alphabet, (bytes, which) => {
        const encoded = encodeBase64(bytes, which);
        expect(encoded).toBe(oracle(bytes, which));
        expect(decodeBase64(encoded, which)).toEqual(bytes);
      }),
    );
  });

  it('accepts a text only when it is the canonical spelling of the bytes Buffer reads from it', () => {
    const chars = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/= .'.split(''));
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 24 }).map((parts) => parts.join('')), alphabet, (input, which) => {
        const decoded = decodeBase64(input, which);
        // Buffer is lenient: it reads many spellings of the same bytes. Strict decoding accepts
        // exactly the one Buffer would write back.
        const lenient = Buffer.from(input, which === 'url' ? 'base64url' : 'base64');
        const canonical = oracle(lenient, which) === input;
        expect(decoded !== undefined, `${JSON.stringify(input)} (${which})`).toBe(canonical);
        if (decoded !== undefined) expect(Buffer.from(decoded)).toEqual(lenient);
      }),
      { numRuns: 2000 },
    );
  });
});
