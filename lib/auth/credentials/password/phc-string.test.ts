import { describe, it, expect } from 'vitest';
import { PasswordHashFormatError } from './password-errors.js';
import { formatArgon2idPhc, parseArgon2idPhc } from './phc-string.js';
import { MALFORMED_HASHES, REFERENCE_HASH, REFERENCE_SALT, REFERENCE_TAG_HEX, REFERENCE_VECTOR } from './test-vectors.js';

describe('parseArgon2idPhc', () => {
  it('parses the published reference vector', () => {
    const phc = parseArgon2idPhc(REFERENCE_VECTOR);
    expect(phc.parameters).toEqual({ memoryCost: 65_536, timeCost: 2, parallelism: 1 });
    expect(new TextDecoder().decode(phc.salt)).toBe('somesalt');
    expect(Buffer.from(phc.hash).toString('hex')).toBe(REFERENCE_TAG_HEX);
  });

  it('formats back to exactly the same string', () => {
    expect(formatArgon2idPhc(parseArgon2idPhc(REFERENCE_VECTOR))).toBe(REFERENCE_VECTOR);
  });

  it.each(MALFORMED_HASHES)('throws PasswordHashFormatError for %s', (_name, input, reason) => {
    let thrown: unknown;
    try {
      parseArgon2idPhc(input);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PasswordHashFormatError);
    const error = thrown as PasswordHashFormatError;
    expect(error.reason).toBe(reason);
    expect(error.code).toBe('PASSWORD_HASH_FORMAT');
    // The message must be safe to log: none of the stored material appears in it.
    expect(error.message).not.toContain(REFERENCE_SALT);
    expect(error.message).not.toContain(REFERENCE_HASH.slice(0, 8));
    expect(error.message).not.toContain('$');
  });
});
