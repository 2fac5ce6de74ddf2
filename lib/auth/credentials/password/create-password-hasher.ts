import { DEFAULT_ARGON2_PARAMETERS, type Argon2Parameters } from './argon2-parameters.js';
import { loadNativePasswordHasher } from './native-password-hasher.js';
import { PasswordHasherUnavailableError } from './password-errors.js';
import type { Argon2PasswordHasher, PasswordHasherBackend } from './password-hasher.js';
import { canCompileWebAssembly, createJsPasswordHasher } from './js-password-hasher.js';
import { createWasmPasswordHasher } from './wasm-password-hasher.js';
import { createWorkerPasswordHasher } from './worker-password-hasher.js';

/**
 * Options for {@link createPasswordHasher}.
 *
 * @example
 * const options: CreatePasswordHasherOptions = { backend: 'worker', workers: 2 };
 */
export interface CreatePasswordHasherOptions {
  /**
   * `auto` (default): `native` if `@node-rs/argon2` loads and passes its self-test, else `wasm`,
   * else (a runtime that cannot compile WebAssembly, such as Cloudflare Workers) `js`.
   * A named backend is used or the call rejects with `PasswordHasherUnavailableError`.
   */
  backend?: 'auto' | PasswordHasherBackend;
  /** Cost for new hashes. Default: {@link DEFAULT_ARGON2_PARAMETERS} (m=19456, t=2, p=1). */
  parameters?: Argon2Parameters;
  /** Thread count for the `worker` backend; ignored by the others. */
  workers?: number;
}

/**
 * Creates an Argon2id password hasher on the chosen backend. All backends write the same PHC
 * format and verify each other's hashes, so the backend can change without rehashing.
 *
 * @throws PasswordHasherUnavailableError when a named backend cannot run here.
 * @throws RangeError when `parameters` are out of range.
 * @example
 * const hasher = await createPasswordHasher({ backend: 'auto' });
 * const stored = await hasher.hash('correct horse');
 * await hasher.verify('correct horse', stored); // true
 */
export async function createPasswordHasher(options: CreatePasswordHasherOptions = {}): Promise<Argon2PasswordHasher> {
  const parameters = options.parameters ?? DEFAULT_ARGON2_PARAMETERS;
  const backend = options.backend ?? 'auto';
  switch (backend) {
    case 'wasm':
      return createWasmPasswordHasher(parameters);
    case 'native':
      return loadNativePasswordHasher(parameters);
    case 'js':
      return createJsPasswordHasher(parameters);
    case 'worker':
      return createWorkerPasswordHasher({ parameters, ...(options.workers === undefined ? {} : { workers: options.workers }) });
    case 'auto':
      try {
        return await loadNativePasswordHasher(parameters);
      } catch (error) {
        if (!(error instanceof PasswordHasherUnavailableError)) throw error;
        // Portable fallback. It blocks the event loop while hashing; on Node without the addon,
        // choose `backend: 'worker'` explicitly to avoid that.
        // Workers refuse to compile WebAssembly at run time: plain JavaScript is all that is left.
        return canCompileWebAssembly() ? createWasmPasswordHasher(parameters) : createJsPasswordHasher(parameters);
      }
    default:
      throw new RangeError(`Unknown password hasher backend: ${String(backend satisfies never)}`);
  }
}
