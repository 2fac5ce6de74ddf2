import { describe, expect, it } from 'vitest';
import { AuthConfigError } from '../../shared/auth-config-error.js';
import type { HmacAlgorithm } from './hmac-algorithm.js';
import { assertSecretLength } from './secret-length.js';

const MINIMUMS: ReadonlyArray<[HmacAlgorithm, number]> = [
  ['HS256', 32],
  ['HS384', 48],
  ['HS512', 64],
];

function caught(run: () => void): unknown {
  try {
    run();
  } catch (err) {
    return err;
  }
  return undefined;
}

describe('assertSecretLength', () => {
  it.each(MINIMUMS)('%s accepts exactly %i ASCII bytes and refuses one fewer', (algorithm, min) => {
    expect(() => assertSecretLength('k'.repeat(min), algorithm)).not.toThrow();
    const secret = 'k'.repeat(min - 1);
    const err = caught(() => assertSecretLength(secret, algorithm));
    expect(err).toBeInstanceOf(AuthConfigError);
    expect((err as Error).name).toBe('AuthConfigError');
    expect((err as Error).message).toBe(
      `${algorithm} requires a secret of at least ${min} bytes (UTF-8), got ${min - 1} bytes`,
    );
    expect((err as Error).message).not.toContain(secret);
  });

  it.each(MINIMUMS)('%s counts UTF-8 bytes, not UTF-16 units or characters', (algorithm, min) => {
    // 'é' is 2 bytes, '€' 3 bytes, '😀' 4 bytes (2 UTF-16 units).
    expect(() => assertSecretLength('é'.repeat(min / 2), algorithm)).not.toThrow();
    const twoByteShort = 'é'.repeat(min / 2 - 1) + 'a';
    expect(() => assertSecretLength(twoByteShort, algorithm)).toThrow(`got ${min - 1} bytes`);
    expect(() => assertSecretLength('😀'.repeat(min / 4), algorithm)).not.toThrow();
    const emojiShort = '😀'.repeat(min / 4 - 1) + 'abc';
    expect(emojiShort.length).toBe(min / 2 + 1); // fewer UTF-16 units than the byte minimum...
    const err = caught(() => assertSecretLength(emojiShort, algorithm));
    expect((err as Error).message).toContain(`got ${min - 1} bytes`); // ...and counted in bytes
    expect((err as Error).message).not.toContain('😀');
    // 10 characters of 3 bytes: 30 bytes, though only 10 characters.
    expect(() => assertSecretLength('€'.repeat(10), algorithm)).toThrow('got 30 bytes');
  });

  it('counts bytes exactly as TextEncoder encodes, lone surrogates included', () => {
    const samples = ['abc', 'é€😀', '\ud800', '\udc00x', 'a\ud83d', '\ud83d\ude00\ud83d'];
    for (const sample of samples) {
      const expected = new TextEncoder().encode(sample).length;
      expect(caught(() => assertSecretLength(sample, 'HS256'))).toHaveProperty('message', expect.stringContaining(`got ${expected} bytes`));
    }
  });

  it('refuses algorithms outside the HMAC set without echoing huge values', () => {
    for (const algorithm of ['RS256', 'none', 'hs256', 'HS1024']) {
      expect(() => assertSecretLength('k'.repeat(64), algorithm as HmacAlgorithm)).toThrow(AuthConfigError);
    }
    const err = caught(() => assertSecretLength('k'.repeat(64), 'X'.repeat(1000) as HmacAlgorithm));
    expect((err as Error).message.length).toBeLessThan(120);
  });

  it('refuses a non-string secret', () => {
    expect(() => assertSecretLength(undefined as unknown as string, 'HS256')).toThrow(AuthConfigError);
    expect(() => assertSecretLength(12345 as unknown as string, 'HS256')).toThrow(AuthConfigError);
  });
});
