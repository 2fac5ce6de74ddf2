import { describe, it, expect } from 'vitest';
import { createPasswordHasher } from './create-password-hasher.js';
import { getDefaultPasswordHasher } from './default-password-hasher.js';
import { getDummyPasswordHash } from './dummy-password-hash.js';
import { parseArgon2idPhc } from './phc-string.js';
import { verifyPassword } from './verify-password.js';

describe('getDummyPasswordHash', () => {
  it('is a real Argon2id hash at the default cost, computed once', async () => {
    const [first, second] = await Promise.all([getDummyPasswordHash(), getDummyPasswordHash()]);
    expect(first).toBe(second);
    expect(await getDummyPasswordHash()).toBe(first);
    expect(await getDummyPasswordHash(await getDefaultPasswordHasher())).toBe(first);
    expect(parseArgon2idPhc(first).parameters).toEqual({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
  });

  it('matches no password a caller could guess', async () => {
    const dummy = await getDummyPasswordHash();
    for (const guess of ['', 'password', 'dummy', '0'.repeat(64)]) {
      expect(await verifyPassword(guess, dummy)).toBe(false);
    }
  });

  it('costs real Argon2id work to verify, like a real account', async () => {
    const dummy = await getDummyPasswordHash();
    const real = await (await getDefaultPasswordHasher()).hash('real');
    const time = async (stored: string): Promise<number> => {
      const started = performance.now();
      for (let i = 0; i < 5; i++) await verifyPassword('attempt', stored);
      return performance.now() - started;
    };
    await time(real);
    const [dummyMs, realMs] = [await time(dummy), await time(real)];
    // Generous: same parameters, so the same work; the bound only guards against a dummy that
    // short-circuits (which would be ~1000x faster).
    expect(dummyMs).toBeGreaterThan(realMs / 4);
  });

  it('keeps one dummy per hasher, made with that hasher\'s cost', async () => {
    const cheap = await createPasswordHasher({ backend: 'wasm', parameters: { memoryCost: 1024, timeCost: 1, parallelism: 1 } });
    const dummy = await getDummyPasswordHash(cheap);
    expect(dummy.startsWith('$argon2id$v=19$m=1024,t=1,p=1$')).toBe(true);
    expect(await getDummyPasswordHash(cheap)).toBe(dummy);
    expect(await getDummyPasswordHash()).not.toBe(dummy);
  });

  it('does not cache a failure', async () => {
    let calls = 0;
    const flaky = {
      hash: async () => {
        calls++;
        if (calls === 1) throw new Error('transient');
        return '$argon2id$v=19$m=1024,t=1,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc';
      },
      verify: async () => false,
    };
    await expect(getDummyPasswordHash(flaky)).rejects.toThrow('transient');
    await expect(getDummyPasswordHash(flaky)).resolves.toMatch(/^\$argon2id\$/);
    expect(calls).toBe(2);
  });
});
