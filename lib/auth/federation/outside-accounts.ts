import type { Awaitable } from '../shared/awaitable.js';
import type { OutsideProfile } from './outside-provider-options.js';

/**
 * What the outside sign-in asks of the app's accounts. Linking rules stay explicit: nothing here
 * is consulted unless a rule says so.
 *
 * @example
 * const accounts: OutsideAccounts = {
 *   findByVerifiedEmail: async (email) => { const a = await store.findByEmail(email); return a?.emailVerified ? a.subject : undefined; },
 *   canUsePassword: async (accountId) => (await store.findBySubject(accountId)) !== undefined,
 * };
 */
export interface OutsideAccounts {
  /**
   * The local account whose e-mail is `email` and verified, or undefined. Asked only for a
   * provider with `linkVerifiedEmail` and a profile whose e-mail the provider verified. An account
   * whose address is not verified must not be answered: whoever registered it never proved the
   * address, and linking would hand the account to them (pre-account takeover).
   */
  findByVerifiedEmail?(email: string): Awaitable<string | undefined>;
  /**
   * Makes a local account for a person seen for the first time and answers its id; undefined (or
   * omitting the function) refuses sign-up through providers.
   */
  create?(profile: OutsideProfile, provider: string): Awaitable<string | undefined>;
  /**
   * Whether the account can still sign in without its linked identities (a password, or a mailed
   * reset of one). Unlinking the last identity of an account that answers false is refused.
   */
  canUsePassword(accountId: string): Awaitable<boolean>;
}
