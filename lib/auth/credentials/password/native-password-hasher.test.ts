import { describe, it, expect } from 'vitest';
import { argon2Verify } from 'hash-wasm';
import * as nodeRsArgon2 from '@node-rs/argon2';
import { DEFAULT_ARGON2_PARAMETERS } from './argon2-parameters.js';
import { loadNativePasswordHasher } from './native-password-hasher.js';
import { describePasswordHasherContract } from './password-hasher-contract.js';
import { formatArgon2idPhc } from './phc-string.js';
import { createWasmPasswordHasher, wasmArgon2idEngine } from './wasm-password-hasher.js';

describePasswordHasherContract('native', (parameters) => loadNativePasswordHasher(parameters));

describe('native and wasm interoperate', () => {
  it('produce the same bytes and the same PHC string for a fixed salt at the default cost', async () => {
    const salt = Uint8Array.from({ length: 16 }, (_, i) => i * 17);
    const password = new TextEncoder().encode('fixed-salt known answer');
    const fromWasm = await wasmArgon2idEngine.derive(password, salt, DEFAULT_ARGON2_PARAMETERS, 32);
    const fromNativeRaw = await nodeRsArgon2.hashRaw(password, { salt, memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 });
    expect(Buffer.from(fromNativeRaw).toString('hex')).toBe(Buffer.from(fromWasm).toString('hex'));

    // The addon's own PHC encoder and ours agree character for character.
    const nativeEncoded = await nodeRsArgon2.hash(password, { salt, memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 });
    expect(formatArgon2idPhc({ parameters: DEFAULT_ARGON2_PARAMETERS, salt, hash: fromWasm })).toBe(nativeEncoded);
  });

  it('wasm hashes verify on native, through our hasher and through the addon\'s own verify', async () => {
    const wasm = createWasmPasswordHasher();
    const native = await loadNativePasswordHasher();
    const stored = await wasm.hash('from wasm');
    expect(await native.verify('from wasm', stored)).toBe(true);
    expect(await native.verify('from wasn', stored)).toBe(false);
    expect(await nodeRsArgon2.verify(stored, 'from wasm')).toBe(true);
  });

  it('native hashes verify on wasm, through our hasher and through hash-wasm\'s own verify', async () => {
    const wasm = createWasmPasswordHasher();
    const native = await loadNativePasswordHasher();
    const stored = await native.hash('from native');
    expect(await wasm.verify('from native', stored)).toBe(true);
    expect(await wasm.verify('from natives', stored)).toBe(false);
    expect(await argon2Verify({ password: 'from native', hash: stored })).toBe(true);
  });

  it('hashes written by the addon itself (its own salt and encoder) verify on both', async () => {
    const foreign = await nodeRsArgon2.hash('addon-made');
    expect(foreign.startsWith('$argon2id$v=19$m=19456,t=2,p=1$')).toBe(true);
    expect(await createWasmPasswordHasher().verify('addon-made', foreign)).toBe(true);
    expect(await (await loadNativePasswordHasher()).verify('addon-made', foreign)).toBe(true);
  });
});
