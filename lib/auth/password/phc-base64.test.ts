import { describe, it, expect } from 'vitest';
import { decodePhcBase64, encodePhcBase64 } from './phc-base64.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('PHC base64', () => {
  it('encodes without padding, standard alphabet', () => {
    expect(encodePhcBase64(bytes('somesalt'))).toBe('c29tZXNhbHQ');
    expect(encodePhcBase64(Uint8Array.of(0xfb, 0xff))).toBe('+/8');
    expect(encodePhcBase64(new Uint8Array(0))).toBe('');
  });

  it('agrees with Buffer base64 for every length 0..40', () => {
    for (let length = 0; length <= 40; length++) {
      const input = crypto.getRandomValues(new Uint8Array(length));
      const expected = Buffer.from(input).toString('base64').replace(/=+$/, '');
      expect(encodePhcBase64(input)).toBe(expected);
      expect(decodePhcBase64(expected)).toEqual(input);
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
  ])('refuses %s', (_name, text) => {
    expect(decodePhcBase64(text)).toBeUndefined();
  });
});
