import { describe, expect, it } from 'vitest';
import { normalizeEmail } from './normalize-email.js';
import { generateAccountToken, hashAccountToken, isWellFormedAccountToken } from './account-token.js';

describe('normalizeEmail', () => {
  it('trims and lower-cases the whole address', () => {
    expect(normalizeEmail('  Ada.Lovelace@Example.COM\t')).toBe('ada.lovelace@example.com');
  });

  it.each(['', 'ada', '@example.com', 'ada@', 'a da@example.com', 'ada@@example.com', 'ada@example..com', 'ada@.example.com', 'ada\u0000@example.com', `${'a'.repeat(250)}@x.io`, 42, undefined])(
    'refuses %j',
    (value) => {
      expect(normalizeEmail(value)).toBeUndefined();
    },
  );
});

describe('account tokens', () => {
  it('are 43 base64url characters (256 bits) and differ every time', () => {
    const [a, b] = [generateAccountToken(), generateAccountToken()];
    expect(isWellFormedAccountToken(a)).toBe(true);
    expect(a).not.toBe(b);
  });

  it('are stored as the SHA-256 hex of their UTF-8 bytes', () => {
    expect(hashAccountToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('refuse anything not shaped like one before hashing', () => {
    expect(isWellFormedAccountToken(`${generateAccountToken()}x`)).toBe(false);
    expect(isWellFormedAccountToken('a'.repeat(42) + '=')).toBe(false);
    expect(isWellFormedAccountToken(null)).toBe(false);
  });
});
