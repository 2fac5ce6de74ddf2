// Public surface of machine API keys: format, generation, hashing, the store contract, the
// authenticator the AuthGuard uses, and the scope decision. Internal helpers (the dummy digest,
// record compilation, the cache and the last-used tracker) are deliberately not exported.
export {
  API_KEY_PREFIX,
  API_KEY_ID_BYTES,
  API_KEY_ID_LENGTH,
  API_KEY_SECRET_BYTES,
  API_KEY_SECRET_LENGTH,
  API_KEY_LENGTH,
} from './api-key-format.js';
export { generateApiKey } from './generate-api-key.js';
export type { GeneratedApiKey } from './generate-api-key.js';
export { parseApiKey } from './parse-api-key.js';
export type { ParsedApiKey } from './parse-api-key.js';
export { hashApiKeySecret } from './hash-api-key-secret.js';
export type { ApiKeyRecord } from './api-key-record.js';
export type { ApiKeyStore } from './api-key-store.js';
export { completeApiKeyStore } from './complete-api-key-store.js';
export type { CompleteApiKeyStore } from './complete-api-key-store.js';
export { InMemoryApiKeyStore } from './in-memory-api-key-store.js';
export { ApiKeyAuthenticator, DEFAULT_API_KEY_CACHE_ENTRIES } from './api-key-authenticator.js';
export type { ApiKeyAuthenticationInput, ApiKeyAuthenticatorOptions } from './api-key-authenticator.js';
export { API_KEY_UNAUTHORIZED, API_KEY_UNAVAILABLE } from './api-key-result.js';
export type { ApiKeyFailure, ApiKeyResult, ApiKeySuccess, AuthenticatedApiKey } from './api-key-result.js';
export { checkScopes } from './check-scopes.js';
export type { ScopeCheckInput, ScopeCredential } from './check-scopes.js';
