import { describe, expect, it } from 'vitest';
import { generateOpaqueToken, hashOpaqueToken, isWellFormedOpaqueToken } from './opaque-token.js';

describe('opaque tokens (refresh tokens, the tokens in account mails)', () => {
  it('are 43 base64url characters (256 bits) and differ every time', () => {
    const [a, b] = [generateOpaqueToken(), generateOpaqueToken()];
    expect(isWellFormedOpaqueToken(a)).toBe(true);
    expect(a).not.toBe(b);
  });

  it('are stored as the SHA-256 hex of their UTF-8 bytes', () => {
    expect(hashOpaqueToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('refuse anything not shaped like one before hashing', () => {
    expect(isWellFormedOpaqueToken(`${generateOpaqueToken()}x`)).toBe(false);
    expect(isWellFormedOpaqueToken('a'.repeat(42) + '=')).toBe(false);
    expect(isWellFormedOpaqueToken(null)).toBe(false);
  });
});
