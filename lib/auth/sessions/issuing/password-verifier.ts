import { getDummyPasswordHash, verifyPassword } from '../../credentials/password/index.js';
import type { PasswordHasher } from '../../credentials/password/index.js';

/**
 * How sign-in checks passwords. `dummyHash` is a real hash of a password nobody knows, verified
 * against when the identifier is unknown so that the response takes as long as for a wrong
 * password.
 *
 * @example
 * const verifier: PasswordVerifier = { verify: verifyPassword, dummyHash: () => getDummyPasswordHash() };
 */
export interface PasswordVerifier {
  verify(password: string, phc: string): Promise<boolean>;
  dummyHash(): Promise<string>;
}

/**
 * The default verifier: Argon2id through `hasher` when given, else through the process-wide
 * default hasher (`verifyPassword`), with that hasher's cached dummy hash.
 *
 * @example
 * const verifier = createDefaultPasswordVerifier(); // or createDefaultPasswordVerifier(await createPasswordHasher({ backend: 'worker' }))
 */
export function createDefaultPasswordVerifier(hasher?: PasswordHasher): PasswordVerifier {
  if (hasher !== undefined) {
    return { verify: (password, phc) => hasher.verify(password, phc), dummyHash: () => getDummyPasswordHash(hasher) };
  }
  return { verify: verifyPassword, dummyHash: () => getDummyPasswordHash() };
}
