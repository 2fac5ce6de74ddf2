import {
  ARGON2_HASH_LENGTH,
  ARGON2_SALT_LENGTH,
  checkArgon2Parameters,
  DEFAULT_ARGON2_PARAMETERS,
  type Argon2Parameters,
} from './argon2-parameters.js';
import { constantTimeEqual } from '../../shared/constant-time-equal.js';
import type { Argon2PasswordHasher, PasswordHasherBackend } from './password-hasher.js';
import { formatArgon2idPhc, parseArgon2idPhc } from './phc-string.js';

/**
 * The one primitive a backend supplies: raw Argon2id (version 0x13, no secret, no associated
 * data) over the given bytes. Parsing, salt generation, formatting and comparison are shared by
 * every backend in {@link createArgon2PasswordHasher}, so they are audited once.
 *
 * @example
 * const engine: Argon2idEngine = {
 *   backend: 'wasm',
 *   derive: (password, salt, parameters, hashLength) => computeArgon2id(password, salt, parameters, hashLength),
 * };
 */
export interface Argon2idEngine {
  readonly backend: PasswordHasherBackend;
  derive(password: Uint8Array, salt: Uint8Array, parameters: Argon2Parameters, hashLength: number): Promise<Uint8Array>;
  close?(): Promise<void>;
}

const encoder = new TextEncoder();

/**
 * Builds a PHC-string password hasher around an {@link Argon2idEngine}.
 *
 * @example
 * const hasher = createArgon2PasswordHasher(wasmArgon2idEngine, { memoryCost: 19456, timeCost: 2, parallelism: 1 });
 */
export function createArgon2PasswordHasher(
  engine: Argon2idEngine,
  parameters: Argon2Parameters = DEFAULT_ARGON2_PARAMETERS,
): Argon2PasswordHasher {
  const cost = checkArgon2Parameters(parameters);

  async function hash(password: string): Promise<string> {
    const passwordBytes = encodePassword(password);
    if (passwordBytes.length === 0) throw new RangeError('Cannot hash an empty password');
    const salt = crypto.getRandomValues(new Uint8Array(ARGON2_SALT_LENGTH));
    const derived = await engine.derive(passwordBytes, salt, cost, ARGON2_HASH_LENGTH);
    return formatArgon2idPhc({ parameters: cost, salt, hash: derived });
  }

  async function verify(password: string, phc: string): Promise<boolean> {
    // Parse first: a malformed hash must throw even when the password is obviously wrong.
    const stored = parseArgon2idPhc(phc);
    const passwordBytes = encodePassword(password);
    // hash() never produces a hash of the empty password and hash-wasm cannot compute one, so
    // no stored hash can match it. Answering early reveals nothing about the account: the
    // attacker chose the empty input.
    if (passwordBytes.length === 0) return false;
    const derived = await engine.derive(passwordBytes, stored.salt, stored.parameters, stored.hash.length);
    return constantTimeEqual(derived, stored.hash);
  }

  return Object.freeze({
    backend: engine.backend,
    parameters: cost,
    hash,
    verify,
    close: async () => {
      await engine.close?.();
    },
  });
}

function encodePassword(password: string): Uint8Array {
  if (typeof password !== 'string') throw new TypeError('Password must be a string');
  // UTF-8 without Unicode normalisation, as other Argon2 implementations do, so hashes move
  // between systems. Every backend receives these same bytes, so they cannot disagree on how a
  // string (even one with lone surrogates) is encoded.
  return encoder.encode(password);
}
