import type { CredentialStore } from '../sessions/issuing/credential-store.js';
import type { AccountStore } from './account-store.js';

/**
 * The credential store sign-in reads when `accounts.requireVerifiedEmail` holds: `loadClaims`
 * answers nothing for an account whose address is unverified, so sign-in refuses it with the
 * same 401 as a wrong password, after the same password check, and refresh refuses it too.
 * When sign-in reads the account store itself, one `findBySubject` answers everything; with a
 * separate credential store, a subject the account store does not know passes through.
 *
 * @example
 * const credentials = verifiedCredentialStore(accountStore, accountStore);
 */
export function verifiedCredentialStore<Claims>(credentials: CredentialStore<Claims>, accounts: AccountStore<Claims>): CredentialStore<Claims> {
  if (credentials === accounts) {
    return {
      findByIdentifier: (identifier) => accounts.findByIdentifier(identifier),
      loadClaims: async (subject) => {
        const account = await accounts.findBySubject(subject);
        return account == null || account.disabled || !account.emailVerified ? undefined : account.claims;
      },
    };
  }
  return {
    findByIdentifier: (identifier) => credentials.findByIdentifier(identifier),
    loadClaims: async (subject) => {
      const account = await accounts.findBySubject(subject);
      if (account != null && !account.emailVerified) return undefined;
      return credentials.loadClaims(subject);
    },
  };
}
