// Public surface of the password module. Engine-level helpers (PHC parsing, base64, the
// constant-time comparison) are exported for custom backends and audits, not for everyday use.
export { hashPassword } from './hash-password.js';
export { verifyPassword } from './verify-password.js';
export { getDummyPasswordHash } from './dummy-password-hash.js';
export { getDefaultPasswordHasher, setDefaultPasswordHasher } from './default-password-hasher.js';
export { createPasswordHasher } from './create-password-hasher.js';
export type { CreatePasswordHasherOptions } from './create-password-hasher.js';
export type { PasswordHasher, Argon2PasswordHasher, PasswordHasherBackend } from './password-hasher.js';
export { createWasmPasswordHasher, wasmArgon2idEngine } from './wasm-password-hasher.js';
export { createJsPasswordHasher, jsArgon2idEngine, canCompileWebAssembly } from './js-password-hasher.js';
export { loadNativePasswordHasher } from './native-password-hasher.js';
export { createWorkerPasswordHasher } from './worker-password-hasher.js';
export type { WorkerPasswordHasherOptions } from './worker-password-hasher.js';
export { createArgon2PasswordHasher } from './argon2-password-hasher.js';
export type { Argon2idEngine } from './argon2-password-hasher.js';
export {
  ARGON2_HASH_LENGTH,
  ARGON2_LIMITS,
  ARGON2_SALT_LENGTH,
  DEFAULT_ARGON2_PARAMETERS,
  areArgon2ParametersValid,
  checkArgon2Parameters,
} from './argon2-parameters.js';
export type { Argon2Parameters } from './argon2-parameters.js';
export { formatArgon2idPhc, parseArgon2idPhc } from './phc-string.js';
export type { Argon2idPhc } from './phc-string.js';
export { PasswordHashFormatError, PasswordHasherUnavailableError } from './password-errors.js';
export type { PasswordHashFormatReason } from './password-errors.js';
