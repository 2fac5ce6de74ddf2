import type { Argon2Parameters } from './argon2-parameters.js';
import { parseArgon2idPhc } from './phc-string.js';

/**
 * Whether a stored Argon2id hash was made with other cost parameters (`m`, `t`, `p`) than
 * `parameters`, the ones new hashes get: it then still verifies (the PHC string carries its own
 * cost), but the next successful sign-in should store a fresh hash (ASVS 5.0 11.2.2). False for
 * a string that is not a well-formed Argon2id hash: there is nothing to upgrade, and its
 * verification refuses it anyway.
 *
 * @example
 * needsRehash('$argon2id$v=19$m=8192,t=1,p=1$...', DEFAULT_ARGON2_PARAMETERS); // true
 */
export function needsRehash(phc: string, parameters: Argon2Parameters): boolean {
  let stored: Argon2Parameters;
  try {
    stored = parseArgon2idPhc(phc).parameters;
  } catch {
    return false;
  }
  return stored.memoryCost !== parameters.memoryCost || stored.timeCost !== parameters.timeCost || stored.parallelism !== parameters.parallelism;
}
