import { describe, it, expect, vi } from 'vitest';

// Simulates a runtime without the native addon (Workers, Deno, an unsupported platform, or an
// install that skipped optional dependencies).
vi.mock('../../../common/import-optional-module.js', () => ({
  importOptionalModule: async (specifier: string) => {
    throw new Error(`Cannot find module '${specifier}'`);
  },
}));

const { createPasswordHasher } = await import('./create-password-hasher.js');
const { PasswordHasherUnavailableError } = await import('./password-errors.js');

describe('createPasswordHasher without the native addon', () => {
  it('auto falls back to wasm, which still hashes and verifies', async () => {
    const hasher = await createPasswordHasher();
    expect(hasher.backend).toBe('wasm');
    expect(await hasher.verify('x', await hasher.hash('x'))).toBe(true);
  });

  it('an explicit native or worker backend fails with PasswordHasherUnavailableError', async () => {
    await expect(createPasswordHasher({ backend: 'native' })).rejects.toBeInstanceOf(PasswordHasherUnavailableError);
    await expect(createPasswordHasher({ backend: 'worker' })).rejects.toBeInstanceOf(PasswordHasherUnavailableError);
  });
});
