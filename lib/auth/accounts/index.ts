// Public surface of the account lifecycle: sign-up, e-mail verification, password reset and
// change, e-mail change, their store contract and the in-memory store.
export type { AccountRecord, AccountStore, AccountTokenPurpose, ConsumedAccountToken, NewAccount, NewAccountToken } from './account-store.js';
export { InMemoryAccountStore } from './in-memory-account-store.js';
export { normalizeEmail } from './normalize-email.js';
export { generateAccountToken, hashAccountToken, isWellFormedAccountToken } from './account-token.js';
