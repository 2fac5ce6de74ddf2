import { describe, expect, it } from 'vitest';
import { decodeBase64Url, encodeBase64Url } from './base64url.js';
import { b64url } from './craft-token.test-helper.js';

describe('base64url', () => {
  it('round-trips every length from 0 to 40 and agrees with an independent encoder', () => {
    for (let length = 0; length <= 40; length++) {
      const bytes = crypto.getRandomValues(new Uint8Array(length));
      const encoded = encodeBase64Url(bytes);
      expect(encoded).toBe(b64url(bytes));
      expect(decodeBase64Url(encoded)).toEqual(bytes);
    }
  });

  it('decodes a range of a larger string', () => {
    expect(decodeBase64Url('xx.aGk.yy', 3, 6)).toEqual(new Uint8Array([104, 105]));
  });

  it.each([
    ['padding', 'aGk='],
    ['padding on a full group', 'aGVs='],
    ['standard alphabet +', 'a+k'],
    ['standard alphabet /', 'a/k'],
    ['whitespace', 'aG k'],
    ['newline', 'aGk\n'],
    ['length 1 mod 4', 'aGVsb'],
    ['non-zero trailing bits (2 chars)', 'aGl'.slice(0, 2).replace('G', 'H')],
    ['non-zero trailing bits (3 chars)', 'aGl'],
    ['non-ASCII', 'aGé'],
    ['a dot', 'aG.k'],
  ])('refuses %s', (_name, input) => {
    expect(decodeBase64Url(input)).toBeUndefined();
  });
});
