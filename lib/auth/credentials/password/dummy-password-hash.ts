import { getDefaultPasswordHasher } from './default-password-hasher.js';
import type { PasswordHasher } from './password-hasher.js';

// One memoised promise per hasher, so switching the default hasher gets a dummy made with the
// new hasher's cost. WeakMap: a discarded hasher takes its dummy with it.
const dummies = new WeakMap<PasswordHasher, Promise<string>>();

/**
 * A real Argon2id hash of a random password nobody knows, computed once per hasher on first
 * use. Sign-in verifies the submitted password against it when the account does not exist, so
 * that an unknown identifier costs the same Argon2id work as a wrong password and response
 * times do not reveal which accounts exist. Verifying against it always answers `false`.
 * The first call pays for one extra hash; call it once at startup so no sign-in does.
 *
 * @example
 * const account = await accounts.findByIdentifier(identifier);
 * const ok = await verifyPassword(password, account?.passwordHash ?? (await getDummyPasswordHash()));
 * if (!account || !ok) throw new UnauthorizedException('Invalid credentials');
 */
export async function getDummyPasswordHash(hasher?: PasswordHasher): Promise<string> {
  const owner = hasher ?? (await getDefaultPasswordHasher());
  let dummy = dummies.get(owner);
  if (dummy === undefined) {
    const secret = crypto.getRandomValues(new Uint8Array(32));
    dummy = owner.hash(Array.from(secret, (byte) => byte.toString(16).padStart(2, '0')).join(''));
    dummies.set(owner, dummy);
    // A failed attempt is not cached, so the next sign-in tries again.
    dummy.catch(() => {
      if (dummies.get(owner) === dummy) dummies.delete(owner);
    });
  }
  return dummy;
}
