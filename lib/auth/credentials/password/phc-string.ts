import { ARGON2_LIMITS, areArgon2ParametersValid, type Argon2Parameters } from './argon2-parameters.js';
import { decodeBase64, encodeBase64 } from '../../../internal/primitives.js';
import { PasswordHashFormatError } from './password-errors.js';

/**
 * The parts of an Argon2id PHC string: `$argon2id$v=19$m=<m>,t=<t>,p=<p>$<salt>$<hash>`.
 *
 * @example
 * const phc: Argon2idPhc = parseArgon2idPhc(stored);
 * phc.parameters.memoryCost; // 19456
 */
export interface Argon2idPhc {
  readonly parameters: Argon2Parameters;
  readonly salt: Uint8Array;
  readonly hash: Uint8Array;
}

/** The only Argon2 version accepted and written (0x13). Version 0x10 hashes are refused. */
const ARGON2_VERSION = 19;

// Longest well-formed string: 5 `$`, `argon2id`, `v=19`, three ten-digit numbers with their
// keys and commas, and 64-byte salt and hash (86 characters each) is well under 300.
// Anything longer is refused before any splitting or regex work.
const MAX_PHC_LENGTH = 320;

// Decimal as the PHC format defines it: no sign, no leading zeros, at most ten digits.
const DECIMAL = '(0|[1-9][0-9]{0,9})';
const PARAMETERS_PATTERN = new RegExp(`^m=${DECIMAL},t=${DECIMAL},p=${DECIMAL}$`);

/**
 * Parses an Argon2id PHC string strictly. Accepts only `argon2id`, version 19, the parameters
 * `m`, `t`, `p` in that order (no `keyid`/`data`), parameters within {@link ARGON2_LIMITS},
 * and canonical unpadded base64 for salt and hash.
 *
 * @throws PasswordHashFormatError naming the rule that failed (never the input).
 * @example
 * parseArgon2idPhc('$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc');
 * // { parameters: { memoryCost: 65536, timeCost: 2, parallelism: 1 }, salt, hash }
 */
export function parseArgon2idPhc(text: unknown): Argon2idPhc {
  if (typeof text !== 'string') throw new PasswordHashFormatError('not-a-string');
  if (text.length > MAX_PHC_LENGTH) throw new PasswordHashFormatError('too-long');

  const fields = text.split('$');
  if (fields.length !== 6 || fields[0] !== '') throw new PasswordHashFormatError('structure');
  const [, algorithm, version, parameterText, saltText, hashText] = fields as [string, string, string, string, string, string];

  if (algorithm !== 'argon2id') throw new PasswordHashFormatError('algorithm');
  if (version !== `v=${ARGON2_VERSION}`) throw new PasswordHashFormatError('version');

  const match = PARAMETERS_PATTERN.exec(parameterText);
  if (match === null) throw new PasswordHashFormatError('parameters');
  const parameters: Argon2Parameters = Object.freeze({
    memoryCost: Number(match[1]),
    timeCost: Number(match[2]),
    parallelism: Number(match[3]),
  });
  if (!areArgon2ParametersValid(parameters)) throw new PasswordHashFormatError('parameters');

  const salt = decodeBase64(saltText, 'standard');
  if (salt === undefined || salt.length < ARGON2_LIMITS.minSaltLength || salt.length > ARGON2_LIMITS.maxSaltLength) {
    throw new PasswordHashFormatError('salt');
  }
  const hash = decodeBase64(hashText, 'standard');
  if (hash === undefined || hash.length < ARGON2_LIMITS.minHashLength || hash.length > ARGON2_LIMITS.maxHashLength) {
    throw new PasswordHashFormatError('hash');
  }
  return Object.freeze({ parameters, salt, hash });
}

/**
 * Writes an Argon2id PHC string. The output is what {@link parseArgon2idPhc} accepts and what
 * the reference implementation, `@node-rs/argon2` and hash-wasm produce for the same inputs.
 *
 * @example
 * formatArgon2idPhc({ parameters: { memoryCost: 19456, timeCost: 2, parallelism: 1 }, salt, hash });
 * // '$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>'
 */
export function formatArgon2idPhc(phc: Argon2idPhc): string {
  const { memoryCost, timeCost, parallelism } = phc.parameters;
  return (
    `$argon2id$v=${ARGON2_VERSION}$m=${memoryCost},t=${timeCost},p=${parallelism}` +
    `$${encodeBase64(phc.salt, 'standard')}$${encodeBase64(phc.hash, 'standard')}`
  );
}
