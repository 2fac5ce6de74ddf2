// The auth entry point, `tessera-http/auth`. Explicit named exports only.
export { REVOCATION_TOPIC, type CredentialRevocation } from './sessions/credential-revocation.js';
export { INVALIDATION_TOPIC, type CredentialInvalidation } from './sessions/revocation-aliases.js';
export { defineAuthModule, type AuthService, type AuthDefinitions } from './define-auth-module.js';
export type { AuthModuleOptions, IssuingOptions, ApiKeyOptions, StoreClass } from './auth-options.js';
export { Roles, Public, RequireScopes } from './auth-metadata.js';
export { readAccessRules, type AccessRules } from '../internal.js';
export {
  AuthConfigError,
  DEFAULT_ISSUER_ALGORITHMS,
  createBearerTokenVerifier,
  type AsymmetricAlgorithm,
  type BearerTokenVerifier,
  type BearerTokenVerifierOptions,
  type HmacAlgorithm,
  type TrustedIssuerOptions,
  type VerificationFailureReason,
  type VerificationResult,
} from './jwt/index.js';
export {
  TokenIssuingService,
  InMemoryRefreshTokenStore,
  BasicInMemoryRefreshTokenStore,
  InMemoryCredentialStore,
  type CredentialStore,
  type RefreshTokenStore,
  type RevokedFamily,
  type SessionRevocationListener,
  type RefreshTokenRecord,
  type NewRefreshToken,
  type TokenPair,
  type SignInContext,
  type StoredSession,
} from './issuing/index.js';
export { MAX_USER_AGENT_LENGTH, MAX_CLIENT_ADDRESS_LENGTH, type SessionInfo } from './sessions/session-info.js';
export {
  hashPassword,
  verifyPassword,
  createPasswordHasher,
  setDefaultPasswordHasher,
  PasswordHashFormatError,
  type PasswordHasher,
  type Argon2PasswordHasher,
} from './password/index.js';
export {
  generateApiKey,
  parseApiKey,
  hashApiKeySecret,
  InMemoryApiKeyStore,
  API_KEY_PREFIX,
  type ApiKeyRecord,
  type ApiKeyStore,
  type GeneratedApiKey,
  type ParsedApiKey,
  type AuthenticatedApiKey,
} from './api-keys/index.js';
export {
  parseAllowedCidrs,
  createClientAddressReader,
  createTrustedProxyMatcher,
  InvalidCidrError,
  CidrHostBitsError,
  type TrustedProxyMatcher,
  type ClientAddressOptions,
  type ClientAddressInput,
  type ClientAddressReader,
  type ClientIpOptions,
} from './client-address-aliases.js';
export { recordRateLimited } from './shared/auth-telemetry.js';
export {
  DEFAULT_SIGN_IN_THROTTLE_TIERS,
  SIGN_IN_THROTTLED_MESSAGE,
  type SignInThrottleOptions,
  type SignInThrottleTier,
  type SignInCounterOptions,
  type SignInCounterFactory,
  type InjectedSignInCounters,
} from './throttle/index.js';
export {
  BrowserSessions,
  BrowserCookies,
  CSRF_HEADER,
  isAllowedRequestOrigin,
  browserSessionSecurityScheme,
  type BrowserSessionBody,
  type BrowserCookieNames,
  type BrowserSessionOptions,
} from './browser/index.js';
export {
  AccountService,
  InMemoryAccountStore,
  normalizeEmail,
  resolvePasswordPolicy,
  isCommonPassword,
  pwnedPasswordCheck,
  INVALID_ACCOUNT_LINK_MESSAGE,
  DEFAULT_PASSWORD_MIN_LENGTH,
  DEFAULT_PASSWORD_MAX_BYTES,
  type AccountOptions,
  type AccountStore,
  type AccountRecord,
  type NewAccount,
  type NewAccountToken,
  type ConsumedAccountToken,
  type AccountTokenPurpose,
  type AccountSettings,
  type AccountServiceOptions,
  type AccountSessions,
  type AccountLinks,
  type AccountTokenTtl,
  type NewAccountClaims,
  type PasswordChange,
  type EmailChangeRequest,
  type PasswordPolicy,
  type PasswordPolicyOptions,
  type PwnedPasswordCheckOptions,
} from './accounts/index.js';
export {
  smtpMailer,
  loggingMailer,
  type LoggingMailerOptions,
  defaultAccountMailTemplates,
  type Mailer,
  type MailMessage,
  type SmtpMailer,
  type SmtpMailerOptions,
  type SmtpTransportOptions,
  type AccountMailTemplates,
  type AccountMailContext,
  type MailContent,
} from './mail/index.js';
export { normalizeIdentifier } from './shared/normalize-identifier.js';
export { NoStore, NO_STORE_HEADERS } from './no-store.js';
export { SecurityEvents, NO_SECURITY_EVENTS, type SecurityEvent, type SecurityEventSink, type SessionRevocationReason } from './events/index.js';
export { DEFAULT_SESSION_MAX_AGE_SECONDS } from './issuing/token-issuing-options.js';
export { DEFAULT_OWN_ISSUER, DEFAULT_OWN_AUDIENCE } from './jwt/own-token-names.js';
