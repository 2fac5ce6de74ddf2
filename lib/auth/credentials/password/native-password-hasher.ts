import { DEFAULT_ARGON2_PARAMETERS, type Argon2Parameters } from './argon2-parameters.js';
import { createArgon2PasswordHasher, type Argon2idEngine } from './argon2-password-hasher.js';
import { importOptionalModule } from '../../../internal/primitives.js';
import { PasswordHasherUnavailableError } from './password-errors.js';
import type { Argon2PasswordHasher } from './password-hasher.js';
import { decodeBase64 } from '../../../internal/primitives.js';

// The slice of `@node-rs/argon2` used here, declared locally so this file type-checks and
// loads where the optional dependency is not installed.
interface NativeArgon2Options {
  salt: Uint8Array;
  memoryCost: number;
  timeCost: number;
  parallelism: number;
  outputLen: number;
  algorithm: number;
  version: number;
}
interface NativeArgon2Module {
  hashRaw(password: Uint8Array, options: NativeArgon2Options): Promise<Uint8Array>;
}

// Values of the addon's `const enum`s, which cannot be imported under `isolatedModules`.
const NATIVE_ALGORITHM_ARGON2ID = 2;
const NATIVE_VERSION_0X13 = 1;

// Published vector from the reference implementation's test suite (phc-winner-argon2
// src/test.c): "password", salt "somesalt", m=256, t=2, p=1. Checked once on load so that a
// mismatched binary is refused instead of writing hashes nothing else can verify.
const SELF_TEST = Object.freeze({
  password: 'password',
  salt: 'somesalt',
  parameters: Object.freeze({ memoryCost: 256, timeCost: 2, parallelism: 1 }),
  expected: 'nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4',
});

let nativeEngine: Promise<Argon2idEngine> | undefined;

/**
 * Loads `@node-rs/argon2` (Node, Bun) and creates a hasher on it. The work runs on libuv's
 * thread pool, so the event loop stays free; at the default cost one hash takes ~9 ms here
 * against ~55 ms for WebAssembly. The addon is loaded on the first call, never at import time.
 *
 * @throws PasswordHasherUnavailableError if the addon is missing, cannot load on this platform,
 * or fails the known-answer self-test.
 * @example
 * const hasher = await loadNativePasswordHasher();
 * const stored = await hasher.hash('correct horse');
 */
export async function loadNativePasswordHasher(
  parameters: Argon2Parameters = DEFAULT_ARGON2_PARAMETERS,
): Promise<Argon2PasswordHasher> {
  nativeEngine ??= loadNativeEngine().catch((error: unknown) => {
    // Forget the failure so that a later call (after installing the addon in a REPL, say) retries.
    nativeEngine = undefined;
    throw error;
  });
  return createArgon2PasswordHasher(await nativeEngine, parameters);
}

async function loadNativeEngine(): Promise<Argon2idEngine> {
  let native: NativeArgon2Module;
  try {
    native = toNativeModule(await importOptionalModule('@node-rs/argon2'));
  } catch (error) {
    throw new PasswordHasherUnavailableError('native', { cause: error });
  }

  const engine: Argon2idEngine = Object.freeze({
    backend: 'native' as const,
    derive: async (password: Uint8Array, salt: Uint8Array, parameters: Argon2Parameters, hashLength: number) => {
      const raw = await native.hashRaw(password, {
        salt,
        memoryCost: parameters.memoryCost,
        timeCost: parameters.timeCost,
        parallelism: parameters.parallelism,
        outputLen: hashLength,
        algorithm: NATIVE_ALGORITHM_ARGON2ID,
        version: NATIVE_VERSION_0X13,
      });
      // A Buffer may be a view on a shared pool; copy to a plain, exact-length array.
      return Uint8Array.from(raw);
    },
  });

  const encoder = new TextEncoder();
  let selfTestPassed = false;
  try {
    const derived = await engine.derive(
      encoder.encode(SELF_TEST.password),
      encoder.encode(SELF_TEST.salt),
      SELF_TEST.parameters,
      32,
    );
    const expected = decodeBase64(SELF_TEST.expected, 'standard');
    selfTestPassed = expected !== undefined && derived.length === expected.length && derived.every((byte, i) => byte === expected[i]);
  } catch (error) {
    throw new PasswordHasherUnavailableError('native', { cause: error });
  }
  if (!selfTestPassed) {
    throw new PasswordHasherUnavailableError('native', { cause: new Error('Argon2id known-answer self-test failed') });
  }
  return engine;
}

function toNativeModule(loaded: unknown): NativeArgon2Module {
  // A CommonJS addon imported from ESM exposes its exports as named bindings and as `default`.
  for (const candidate of [loaded, (loaded as { default?: unknown } | null)?.default]) {
    if (typeof candidate === 'object' && candidate !== null && typeof (candidate as { hashRaw?: unknown }).hashRaw === 'function') {
      return candidate as NativeArgon2Module;
    }
  }
  throw new TypeError('@node-rs/argon2 does not export hashRaw');
}
