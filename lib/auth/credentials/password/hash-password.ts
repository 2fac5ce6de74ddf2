import { getDefaultPasswordHasher } from './default-password-hasher.js';

/**
 * Hashes a password with Argon2id (m=19456, t=2, p=1, 16-byte random salt, 32-byte output) on
 * the default hasher and returns the PHC string to store.
 *
 * @throws RangeError for an empty password.
 * @example
 * const stored = await hashPassword('correct horse battery staple');
 * // '$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>'
 */
export async function hashPassword(password: string): Promise<string> {
  return (await getDefaultPasswordHasher()).hash(password);
}
