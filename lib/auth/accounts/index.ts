// Public surface of the account lifecycle: sign-up, e-mail verification, password reset and
// change, e-mail change, their store contract and the in-memory store.
export type { AccountRecord, AccountStore, AccountTokenPurpose, ConsumedAccountToken, NewAccount, NewAccountToken, TransactionalAccountStore } from './account-store.js';
export { InMemoryAccountStore } from './in-memory-account-store.js';
export { normalizeEmail } from './normalize-email.js';
export { AccountService } from './account-service.js';
export type { AccountLifecycleOptions, AccountServiceDeps, AccountServiceOptions, AccountSessions, AccountSettings, AccountTokenTtl, EmailChangeRequest, NewAccountClaims, PasswordChange } from './account-service-options.js';
export { resolveAccountLinks } from './account-links.js';
export type { AccountLinks } from './account-links.js';
export { resolvePasswordPolicy, DEFAULT_PASSWORD_MAX_BYTES, DEFAULT_PASSWORD_MIN_LENGTH } from './password-policy.js';
export type { PasswordPolicy, PasswordPolicyOptions } from './password-policy.js';
export { isCommonPassword } from './common-passwords.js';
export { pwnedPasswordCheck } from './pwned-password-check.js';
export type { PwnedPasswordCheckOptions } from './pwned-password-check.js';
export { INVALID_ACCOUNT_LINK_MESSAGE, invalidAccountLink } from './invalid-account-link.js';
export type { AccountModuleParts, AccountOptions } from './account-options.js';
export type { AccountMailIntent, AccountMailQueue, AccountTransaction } from './account-mail-intent.js';
export { accountMailJobs } from './account-mail-jobs.js';
export type { AccountMailJobsOptions } from './account-mail-jobs.js';
