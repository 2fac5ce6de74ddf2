import { getDefaultPasswordHasher } from './default-password-hasher.js';

/**
 * Checks a password against a stored Argon2id PHC string, using the cost parameters recorded in
 * that string (so hashes made under an older cost keep verifying). The final comparison is
 * constant-time.
 *
 * @returns `false` for a wrong password.
 * @throws PasswordHashFormatError for a malformed or unsupported hash; never `false` for those,
 * so a corrupted row surfaces as an error instead of as a user who cannot sign in.
 * @example
 * if (await verifyPassword(submitted, account.passwordHash)) { issueTokens(account); }
 */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  return (await getDefaultPasswordHasher()).verify(password, hash);
}
