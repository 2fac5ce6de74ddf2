// The auth entry point, `tessera/auth`. Explicit named exports only.
export { defineAuthModule, type AuthService } from './define-auth-module.js';
export type { AuthModuleOptions, IssuingOptions, StoreClass } from './auth-options.js';
export { Roles, Public, RequireScopes, readAccessRules, ROLES_KEY, PUBLIC_KEY, SCOPES_KEY, type AccessRules } from './auth-metadata.js';
export { AuthConfigError, type HmacAlgorithm } from './jwt/index.js';
export {
  TokenIssuingService,
  InMemoryRefreshTokenStore,
  BasicInMemoryRefreshTokenStore,
  InMemoryCredentialStore,
  type CredentialStore,
  type RefreshTokenStore,
  type RefreshTokenRecord,
  type NewRefreshToken,
  type TokenPair,
} from './issuing/index.js';
export {
  hashPassword,
  verifyPassword,
  createPasswordHasher,
  setDefaultPasswordHasher,
  PasswordHashFormatError,
  type PasswordHasher,
} from './password/index.js';
