import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { REFRESH_TOKEN_LENGTH, generateRefreshToken, isWellFormedRefreshToken } from './generate-refresh-token.js';
import { hashRefreshToken } from './hash-refresh-token.js';

describe('generateRefreshToken', () => {
  it('makes 43 base64url characters that decode to 32 bytes', () => {
    const token = generateRefreshToken();
    expect(token).toHaveLength(REFRESH_TOKEN_LENGTH);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const bytes = Uint8Array.from(atob(token.replace(/-/g, '+').replace(/_/g, '/') + '='), (c) => c.charCodeAt(0));
    expect(bytes).toHaveLength(32);
  });

  it('never repeats', () => {
    const tokens = new Set(Array.from({ length: 1000 }, generateRefreshToken));
    expect(tokens.size).toBe(1000);
  });
});

describe('isWellFormedRefreshToken', () => {
  it('accepts exactly 43 base64url characters', () => {
    expect(isWellFormedRefreshToken(generateRefreshToken())).toBe(true);
    for (const bad of ['', 'a'.repeat(42), 'a'.repeat(44), 'a'.repeat(42) + '=', 'a'.repeat(42) + '+', `${'a'.repeat(42)}\n`, null, 42, undefined]) {
      expect(isWellFormedRefreshToken(bad)).toBe(false);
    }
  });
});

describe('hashRefreshToken', () => {
  it('is SHA-256 of the UTF-8 bytes, as 64 lowercase hex', () => {
    expect(hashRefreshToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const token = generateRefreshToken();
    const expected = Array.from(sha256(new TextEncoder().encode(token)), (b) => b.toString(16).padStart(2, '0')).join('');
    expect(hashRefreshToken(token)).toBe(expected);
  });
});
