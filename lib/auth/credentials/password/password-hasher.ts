import type { Argon2Parameters } from './argon2-parameters.js';

/**
 * Hashes and verifies passwords as PHC strings. Anything implementing this can be made the
 * default with `setDefaultPasswordHasher`, for example a hasher backed by a remote service.
 *
 * @example
 * const hasher: PasswordHasher = await createPasswordHasher();
 * const stored = await hasher.hash('correct horse');
 * await hasher.verify('correct horse', stored); // true
 */
export interface PasswordHasher {
  /** Hashes with a fresh random salt; resolves to a PHC string. */
  hash(password: string): Promise<string>;
  /**
   * Verifies with the parameters stored in `phc`. Resolves `false` for a wrong password and
   * rejects with `PasswordHashFormatError` for a malformed or unsupported hash.
   */
  verify(password: string, phc: string): Promise<boolean>;
}

/**
 * Where the Argon2id work runs:
 * - `wasm`: hash-wasm on the calling thread. Runs everywhere (Node, Bun, Deno, Workers) but
 *   blocks the event loop for the whole hash (~55 ms at the default cost).
 * - `native`: `@node-rs/argon2` on libuv's thread pool (Node, Bun). Fast and non-blocking.
 * - `worker`: hash-wasm in a pool of `worker_threads` (Node). Non-blocking without the addon.
 * - `js`: `@noble/hashes` in plain JavaScript, for runtimes that cannot compile WebAssembly at
 *   run time (Cloudflare Workers). About four times slower than `wasm`.
 *
 * @example
 * const backend: PasswordHasherBackend = 'native';
 */
export type PasswordHasherBackend = 'wasm' | 'native' | 'worker' | 'js';

/**
 * A built-in Argon2id hasher. Every backend writes the same PHC format and verifies the others'
 * hashes.
 *
 * @example
 * const hasher = await createPasswordHasher({ backend: 'wasm' });
 * hasher.backend; // 'wasm'
 * hasher.parameters; // { memoryCost: 19456, timeCost: 2, parallelism: 1 }
 */
export interface Argon2PasswordHasher extends PasswordHasher {
  readonly backend: PasswordHasherBackend;
  /** The cost used for new hashes; verification always uses the cost stored in the hash. */
  readonly parameters: Argon2Parameters;
  /** Releases resources (worker threads). A no-op for backends that hold none. */
  close(): Promise<void>;
}
