import { describe, it, expect } from 'vitest';
import { argon2Verify, argon2id } from 'hash-wasm';
import { describePasswordHasherContract } from './password-hasher-contract.js';
import { REFERENCE_TAG_HEX } from './test-vectors.js';
import { createWasmPasswordHasher, wasmArgon2idEngine } from './wasm-password-hasher.js';

describePasswordHasherContract('wasm', async (parameters) => createWasmPasswordHasher(parameters));

describe('wasm Argon2id engine', () => {
  it('derives the published reference tag', async () => {
    const encoder = new TextEncoder();
    const tag = await wasmArgon2idEngine.derive(
      encoder.encode('password'),
      encoder.encode('somesalt'),
      { memoryCost: 65_536, timeCost: 2, parallelism: 1 },
      32,
    );
    expect(Buffer.from(tag).toString('hex')).toBe(REFERENCE_TAG_HEX);
  });

  it("writes hashes that hash-wasm's own verifier accepts, and verifies hash-wasm's own encoding", async () => {
    const hasher = createWasmPasswordHasher();
    expect(await argon2Verify({ password: 'pw1', hash: await hasher.hash('pw1') })).toBe(true);
    const foreign = await argon2id({
      password: 'pw2',
      salt: crypto.getRandomValues(new Uint8Array(16)),
      memorySize: 19_456,
      iterations: 2,
      parallelism: 1,
      hashLength: 32,
      outputType: 'encoded',
    });
    expect(await hasher.verify('pw2', foreign)).toBe(true);
  });
});
