import { describe, it, expect } from 'vitest';
import { createPasswordHasher } from './create-password-hasher.js';
import { getDefaultPasswordHasher } from './default-password-hasher.js';
import { PasswordHashFormatError } from './password-errors.js';
import { verifyPassword } from './verify-password.js';
import { MALFORMED_HASHES, REFERENCE_PASSWORD, REFERENCE_VECTOR } from './test-vectors.js';

describe('verifyPassword', () => {
  it('verifies the published reference vector (m=65536) with the default m=19456 hasher', async () => {
    expect(await verifyPassword(REFERENCE_PASSWORD, REFERENCE_VECTOR)).toBe(true);
    expect(await verifyPassword('passw0rd', REFERENCE_VECTOR)).toBe(false);
  });

  it('uses the parameters stored in the hash, not the current cost', async () => {
    const old = await createPasswordHasher({ backend: 'wasm', parameters: { memoryCost: 8192, timeCost: 1, parallelism: 1 } });
    const stored = await old.hash('set under the old cost');
    expect(stored.startsWith('$argon2id$v=19$m=8192,t=1,p=1$')).toBe(true);
    expect((await getDefaultPasswordHasher()) as unknown).not.toBe(old);

    expect(await verifyPassword('set under the old cost', stored)).toBe(true);
    // Same salt and hash under other parameters must fail: the stored m and t really are used.
    expect(await verifyPassword('set under the old cost', stored.replace('m=8192,t=1', 'm=19456,t=2'))).toBe(false);
    expect(await verifyPassword('set under the old cost', stored.replace('m=8192,t=1', 'm=8192,t=2'))).toBe(false);
  });

  it.each(MALFORMED_HASHES)('throws PasswordHashFormatError (not false) for %s', async (_name, input, reason) => {
    const rejection = verifyPassword('hunter2', input as string);
    await expect(rejection).rejects.toBeInstanceOf(PasswordHashFormatError);
    await expect(rejection).rejects.toMatchObject({ reason });
    await rejection.catch((error: unknown) => {
      expect((error as Error).message).not.toContain('hunter2');
      if (typeof input === 'string' && input.length > 0) expect((error as Error).message).not.toContain(input);
    });
  });
});
