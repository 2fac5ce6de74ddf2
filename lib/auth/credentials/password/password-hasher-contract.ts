// Test-only: the behaviour every built-in backend must share, run by each backend's test file.
// Not exported from index.ts.
import { describe, it, expect } from 'vitest';
import { PasswordHashFormatError } from './password-errors.js';
import type { Argon2Parameters } from './argon2-parameters.js';
import type { Argon2PasswordHasher, PasswordHasherBackend } from './password-hasher.js';
import { parseArgon2idPhc } from './phc-string.js';
import { MALFORMED_HASHES, REFERENCE_PASSWORD, REFERENCE_VECTOR, SMALL_REFERENCE_VECTOR } from './test-vectors.js';

type HasherFactory = (parameters?: Argon2Parameters) => Promise<Argon2PasswordHasher>;

const PHC_PATTERN = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/;

/**
 * Declares the shared contract tests for one backend.
 *
 * @example
 * describePasswordHasherContract('wasm', async (parameters) => createWasmPasswordHasher(parameters));
 */
export function describePasswordHasherContract(backend: PasswordHasherBackend, create: HasherFactory): void {
  describe(`${backend} password hasher contract`, () => {
    it('reports its backend and the default cost', async () => {
      const hasher = await create();
      expect(hasher.backend).toBe(backend);
      expect(hasher.parameters).toEqual({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    });

    it('verifies the published reference vectors (known answers)', async () => {
      const hasher = await create();
      expect(await hasher.verify(REFERENCE_PASSWORD, SMALL_REFERENCE_VECTOR)).toBe(true);
      expect(await hasher.verify(REFERENCE_PASSWORD, REFERENCE_VECTOR)).toBe(true);
      expect(await hasher.verify('Password', SMALL_REFERENCE_VECTOR)).toBe(false);
    });

    it('writes the SPEC format: argon2id, v=19, m=19456,t=2,p=1, 16-byte salt, 32-byte hash', async () => {
      const hasher = await create();
      const stored = await hasher.hash('correct horse battery staple');
      expect(stored).toMatch(PHC_PATTERN);
      const phc = parseArgon2idPhc(stored);
      expect(phc.salt).toHaveLength(16);
      expect(phc.hash).toHaveLength(32);
    });

    it('round-trips, and refuses a wrong password', async () => {
      const hasher = await create();
      const stored = await hasher.hash('correct horse battery staple');
      expect(await hasher.verify('correct horse battery staple', stored)).toBe(true);
      expect(await hasher.verify('correct horse battery stapl', stored)).toBe(false);
      expect(await hasher.verify('Correct horse battery staple', stored)).toBe(false);
      expect(await hasher.verify('correct horse battery staple ', stored)).toBe(false);
    });

    it('uses a fresh random salt: two hashes of one password differ', async () => {
      const hasher = await create();
      const [first, second] = await Promise.all([hasher.hash('same password'), hasher.hash('same password')]);
      expect(first).not.toBe(second);
      expect(parseArgon2idPhc(first).salt).not.toEqual(parseArgon2idPhc(second).salt);
      expect(await hasher.verify('same password', first)).toBe(true);
      expect(await hasher.verify('same password', second)).toBe(true);
    });

    it('hashes the UTF-8 bytes without normalising', async () => {
      const hasher = await create({ memoryCost: 256, timeCost: 1, parallelism: 1 });
      const composed = 'caf\u00e9 \u{1F511}';
      const decomposed = 'cafe\u0301 \u{1F511}';
      const stored = await hasher.hash(composed);
      expect(await hasher.verify(composed, stored)).toBe(true);
      expect(await hasher.verify(decomposed, stored)).toBe(false);
    });

    it('writes and verifies a custom cost, including p > 1', async () => {
      const hasher = await create({ memoryCost: 8192, timeCost: 1, parallelism: 2 });
      const stored = await hasher.hash('pw');
      expect(stored.startsWith('$argon2id$v=19$m=8192,t=1,p=2$')).toBe(true);
      expect(await hasher.verify('pw', stored)).toBe(true);
    });

    it('refuses to hash an empty password and never matches one', async () => {
      const hasher = await create();
      await expect(hasher.hash('')).rejects.toThrow(RangeError);
      expect(await hasher.verify('', SMALL_REFERENCE_VECTOR)).toBe(false);
    });

    it('rejects a non-string password with a TypeError', async () => {
      const hasher = await create();
      await expect(hasher.hash(42 as unknown as string)).rejects.toThrow(TypeError);
      await expect(hasher.verify(null as unknown as string, SMALL_REFERENCE_VECTOR)).rejects.toThrow(TypeError);
    });

    it('throws PasswordHashFormatError (never false) for every malformed hash', async () => {
      const hasher = await create();
      for (const [name, input, reason] of MALFORMED_HASHES) {
        const outcome = await hasher.verify(REFERENCE_PASSWORD, input as string).then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        );
        expect(outcome, name).toHaveProperty('error');
        const error = (outcome as { error: unknown }).error;
        expect(error, name).toBeInstanceOf(PasswordHashFormatError);
        expect((error as PasswordHashFormatError).reason, name).toBe(reason);
        expect((error as Error).message, name).not.toContain(REFERENCE_PASSWORD);
      }
    });
  });
}
