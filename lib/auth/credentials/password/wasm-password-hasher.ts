import { argon2id } from 'hash-wasm';
import { DEFAULT_ARGON2_PARAMETERS, type Argon2Parameters } from './argon2-parameters.js';
import { createArgon2PasswordHasher, type Argon2idEngine } from './argon2-password-hasher.js';
import type { Argon2PasswordHasher } from './password-hasher.js';

/**
 * Argon2id computed by hash-wasm on the calling thread. Portable to every runtime with
 * WebAssembly, but each call blocks the event loop for the whole hash.
 *
 * @example
 * const raw = await wasmArgon2idEngine.derive(passwordBytes, salt, DEFAULT_ARGON2_PARAMETERS, 32);
 */
export const wasmArgon2idEngine: Argon2idEngine = Object.freeze({
  backend: 'wasm' as const,
  derive: (password: Uint8Array, salt: Uint8Array, parameters: Argon2Parameters, hashLength: number) =>
    argon2id({
      password,
      salt,
      memorySize: parameters.memoryCost,
      iterations: parameters.timeCost,
      parallelism: parameters.parallelism,
      hashLength,
      outputType: 'binary',
    }),
});

/**
 * Creates a hasher that runs hash-wasm on the calling thread. Use it where nothing else runs
 * (Cloudflare Workers, Deno, browsers) or where each request has its own isolate anyway.
 *
 * @example
 * const hasher = createWasmPasswordHasher();
 * const stored = await hasher.hash('correct horse');
 */
export function createWasmPasswordHasher(parameters: Argon2Parameters = DEFAULT_ARGON2_PARAMETERS): Argon2PasswordHasher {
  return createArgon2PasswordHasher(wasmArgon2idEngine, parameters);
}
