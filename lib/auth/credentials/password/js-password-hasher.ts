import { argon2idAsync } from '@noble/hashes/argon2.js';
import { DEFAULT_ARGON2_PARAMETERS, type Argon2Parameters } from './argon2-parameters.js';
import { createArgon2PasswordHasher, type Argon2idEngine } from './argon2-password-hasher.js';
import type { Argon2PasswordHasher } from './password-hasher.js';

/**
 * Argon2id in plain JavaScript (`@noble/hashes`): the backend for runtimes that refuse to compile
 * WebAssembly at run time, such as Cloudflare Workers ("Wasm code generation disallowed by
 * embedder"), where hash-wasm cannot run. About four times slower than WebAssembly; it yields
 * to the event loop every few milliseconds while hashing.
 *
 * @example
 * const raw = await jsArgon2idEngine.derive(passwordBytes, salt, DEFAULT_ARGON2_PARAMETERS, 32);
 */
export const jsArgon2idEngine: Argon2idEngine = Object.freeze({
  backend: 'js' as const,
  derive: (password: Uint8Array, salt: Uint8Array, parameters: Argon2Parameters, hashLength: number) =>
    argon2idAsync(password, salt, {
      m: parameters.memoryCost,
      t: parameters.timeCost,
      p: parameters.parallelism,
      dkLen: hashLength,
      version: 0x13,
    }),
});

/**
 * Creates a hasher on the plain-JavaScript engine.
 *
 * @example
 * setDefaultPasswordHasher(createJsPasswordHasher());
 */
export function createJsPasswordHasher(parameters: Argon2Parameters = DEFAULT_ARGON2_PARAMETERS): Argon2PasswordHasher {
  return createArgon2PasswordHasher(jsArgon2idEngine, parameters);
}

// The smallest valid module: magic number and version.
const EMPTY_WASM_MODULE = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

/**
 * Whether this runtime compiles WebAssembly from bytes at run time, which hash-wasm needs.
 * Workers allow only modules uploaded with the script, so this is false there.
 *
 * @example
 * const hasher = canCompileWebAssembly() ? createWasmPasswordHasher() : createJsPasswordHasher();
 */
export function canCompileWebAssembly(): boolean {
  try {
    return typeof WebAssembly === 'object' && new WebAssembly.Module(EMPTY_WASM_MODULE) instanceof WebAssembly.Module;
  } catch {
    return false;
  }
}
