import { describe, expect, it } from 'vitest';
import { describePasswordHasherContract } from './password-hasher-contract.js';
import { canCompileWebAssembly, createJsPasswordHasher } from './js-password-hasher.js';
import { createWasmPasswordHasher } from './wasm-password-hasher.js';

describePasswordHasherContract('js', async (parameters) => createJsPasswordHasher(parameters));

describe('js Argon2id backend', () => {
  it('verifies the WebAssembly backend hashes and the reverse', async () => {
    const js = createJsPasswordHasher();
    const wasm = createWasmPasswordHasher();
    expect(await js.verify('pw', await wasm.hash('pw'))).toBe(true);
    expect(await wasm.verify('pw', await js.hash('pw'))).toBe(true);
  });

  it('knows that Node compiles WebAssembly', () => {
    expect(canCompileWebAssembly()).toBe(true);
  });
});
