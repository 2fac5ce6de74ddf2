import { describe, it, expect } from 'vitest';
import { createPasswordHasher } from './create-password-hasher.js';
import type { CreatePasswordHasherOptions } from './create-password-hasher.js';

describe('createPasswordHasher', () => {
  it('picks the native addon for auto on Node when it is installed', async () => {
    const hasher = await createPasswordHasher();
    expect(hasher.backend).toBe('native');
    expect((await createPasswordHasher({ backend: 'auto' })).backend).toBe('native');
  });

  it.each(['wasm', 'native', 'worker'] as const)('builds the %s backend on request', async (backend) => {
    const hasher = await createPasswordHasher({ backend, workers: 1 });
    try {
      expect(hasher.backend).toBe(backend);
      expect(await hasher.verify('x', await hasher.hash('x'))).toBe(true);
    } finally {
      await hasher.close();
    }
  });

  it('applies custom parameters to new hashes', async () => {
    const hasher = await createPasswordHasher({ backend: 'wasm', parameters: { memoryCost: 8192, timeCost: 1, parallelism: 1 } });
    expect(hasher.parameters).toEqual({ memoryCost: 8192, timeCost: 1, parallelism: 1 });
    expect((await hasher.hash('x')).startsWith('$argon2id$v=19$m=8192,t=1,p=1$')).toBe(true);
  });

  it('refuses out-of-range parameters and unknown backends', async () => {
    await expect(createPasswordHasher({ backend: 'wasm', parameters: { memoryCost: 19_456, timeCost: 0, parallelism: 1 } })).rejects.toThrow(
      RangeError,
    );
    await expect(createPasswordHasher({ backend: 'bcrypt' } as unknown as CreatePasswordHasherOptions)).rejects.toThrow(RangeError);
  });
});
