import { getDefaultPasswordHasher, type Argon2PasswordHasher, type PasswordHasher } from '../../credentials/password/index.js';
import { needsRehash } from '../../credentials/password/needs-rehash.js';

/**
 * The fresh hash a successful sign-in stores when the stored one was made with other Argon2id
 * parameters than the hasher's (ASVS 5.0 11.2.2). Asked only after the password verified, so a
 * failed sign-in does no more work than before (its answer and time are unchanged).
 *
 * @example
 * const fresh = await rehash.freshHash(password, account.passwordHash); // undefined: keep it
 */
export interface PasswordRehash {
  freshHash(password: string, phc: string): Promise<string | undefined>;
}

/**
 * The rehash of `hasher` (else the process-wide default hasher, as sign-in verifies with): a new
 * hash with its `parameters` when the stored hash's differ. A hasher that does not say its
 * parameters (a `PasswordHasher` of your own without `parameters`) never rehashes.
 *
 * @example
 * const rehash = createPasswordRehash(await createPasswordHasher({ parameters: { memoryCost: 65536, timeCost: 3, parallelism: 1 } }));
 */
export function createPasswordRehash(hasher?: PasswordHasher): PasswordRehash {
  return {
    async freshHash(password, phc) {
      const current = hasher ?? (await getDefaultPasswordHasher());
      const parameters = (current as Partial<Pick<Argon2PasswordHasher, 'parameters'>>).parameters;
      if (parameters === undefined || !needsRehash(phc, parameters)) return undefined;
      return current.hash(password);
    },
  };
}
