// The auth entry point, `tessera-http/auth`. Explicit named exports only.
export { REVOCATION_TOPIC, type CredentialRevocation } from './sessions/state/credential-revocation.js';
export { INVALIDATION_TOPIC, type CredentialInvalidation } from './sessions/state/revocation-aliases.js';
export { defineAuthModule, type AuthDefinitions } from './core/define-auth-module.js';
export type { AuthService } from './core/auth-service.js';
export type { IssuingModuleParts } from './sessions/issuing/issuing-options.js';
export type { AuthModuleOptions, AuthModuleScopeOptions, AuthFeatureOptions, IssuingOptions, ApiKeyOptions, StoreClass, AuthRouteOptions } from './core/auth-options.js';
export type { AuthRouteControllers } from './routes/index.js';
export type { RecentAuthOptions } from './core/recent-auth-guard.js';
export { DEFAULT_RECENT_AUTH_SECONDS, REAUTHENTICATION_REQUIRED_TYPE } from './sessions/state/recent-auth.js';
export { Roles, Public, RequireScopes } from './core/auth-metadata.js';
export { readAccessRules, type AccessRules } from '../internal/access-rules.js';
export {
  AuthConfigError,
  DEFAULT_ISSUER_ALGORITHMS,
  createBearerTokenVerifier,
  type AsymmetricAlgorithm,
  type BearerTokenVerifier,
  type BearerTokenVerifierOptions,
  type OwnTokenOptions,
  type TokenAcceptanceOptions,
  type HmacAlgorithm,
  type TrustedIssuerOptions,
  type VerificationFailureReason,
  type VerificationResult,
} from './credentials/jwt/index.js';
export {
  TokenIssuingService,
  InMemoryRefreshTokenStore,
  InMemoryCredentialStore,
  replacesPasswordHashes,
  type CredentialStore,
  type RehashingCredentialStore,
  type RefreshTokenStore,
  type RevokedFamily,
  type SessionRevocationListener,
  type RefreshTokenRecord,
  type NewRefreshToken,
  type TokenPair,
  type SignInContext,
  type StoredSession,
  type TokenLifetimeOptions,
} from './sessions/issuing/index.js';
export { MAX_USER_AGENT_LENGTH, MAX_CLIENT_ADDRESS_LENGTH, type SessionInfo } from './sessions/state/session-info.js';
export {
  hashPassword,
  verifyPassword,
  createPasswordHasher,
  setDefaultPasswordHasher,
  PasswordHashFormatError,
  type PasswordHasher,
  type Argon2PasswordHasher,
} from './credentials/password/index.js';
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
} from './credentials/api-keys/index.js';
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
} from './core/client-address-aliases.js';
export { BasicInMemoryRefreshTokenStore } from './core/testing-aliases.js';
export { recordRateLimited } from './shared/auth-telemetry.js';
export {
  DEFAULT_SIGN_IN_THROTTLE_TIERS,
  SIGN_IN_THROTTLED_MESSAGE,
  type SignInThrottleOptions,
  type SignInThrottleTier,
  type SignInCounterOptions,
  type SignInCounterFactory,
  type InjectedSignInCounters,
  DEFAULT_ACCOUNT_ROUTE_BUDGETS,
  ACCOUNT_ROUTE_THROTTLED_MESSAGE,
  type AccountRouteThrottleOptions,
  type AccountRouteBudgets,
  type RequestBudget,
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
} from './sessions/browser/index.js';
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
  type TransactionalAccountStore,
  type AccountRecord,
  type NewAccount,
  type NewAccountToken,
  type ConsumedAccountToken,
  type AccountTokenPurpose,
  type AccountSettings,
  type AccountLifecycleOptions,
  type AccountModuleParts,
  type AccountServiceDeps,
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
  type AccountMailIntent,
  type AccountMailQueue,
  type AccountTransaction,
  accountMailJobs,
  type AccountMailJobsOptions,
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
  mailJobs,
  type MailJobsOptions,
} from './accounts/mail/index.js';
export { normalizeIdentifier } from './shared/normalize-identifier.js';
export { NoStore, NO_STORE_HEADERS } from './core/no-store.js';
export {
  SecondFactorService,
  InMemorySecondFactorStore,
  SecretBox,
  RequireStepUp,
  generateTotpSecret,
  totpSecretBase32,
  totpUri,
  matchTotp,
  generateRecoveryCodes,
  normalizeRecoveryCode,
  recoveryCodeDigest,
  INVALID_SECOND_FACTOR_MESSAGE,
  RECOVERY_CODE_COUNT,
  TOTP_PERIOD_SECONDS,
  STEP_UP_SECOND_FACTOR_TYPE,
  STEP_UP_SIGN_IN_TYPE,
  STEP_UP_ENROLMENT_TYPE,
  type SecondFactorOptions,
  type SecondFactorStore,
  type SecondFactorProof,
  type SecondFactorStatus,
  type SecondFactorSettings,
  type TotpEnrolment,
  type TotpEnrolmentAnswer,
  type StoredPasskey,
  type StoredChallenge,
  type PendingSignIn,
  type PasskeyChallengePurpose,
  type PasskeyOptions,
  type PasskeyOptionsJson,
  type StepUpRule,
} from './factors/index.js';
export { secondFactorControllers, type SecondFactorRouteParts, type SecondFactorRouteOptions } from './core/second-factor-routes.js';
export {
  SecondFactorRequiredException,
  secondFactorRequiredAnswer,
  SECOND_FACTOR_REQUIRED_TYPE,
  SECOND_FACTOR_REQUIRED_CODE,
  type SecondFactorGate,
  type SecondFactorStep,
  type SecondFactorKind,
  type SignInStep,
  type GatedSessionIssuing,
} from './sessions/issuing/index.js';
export {
  getPrincipal,
  getAccountId,
  OutsideSignIn,
  InMemoryIdentityStore,
  InMemorySignInFlowStore,
  FLOW_BINDING_COOKIE,
  type Principal,
  type IdentityStore,
  type LinkedIdentity,
  type SignInFlow,
  type SignInFlowStore,
  type OutsideAccounts,
  type OutsideProfile,
  type OutsideProviderOptions,
  type OidcProviderOptions,
  type OAuthProviderOptions,
  type OutsideSignInOptions,
} from './federation/index.js';
export { SecurityEvents, NO_SECURITY_EVENTS, type AccessRefusalReason, type SecurityEvent, type SecurityEventSink, type SessionRevocationReason } from './events/index.js';
export { DEFAULT_SESSION_MAX_AGE_SECONDS } from './sessions/issuing/token-issuing-options.js';
export { DEFAULT_OWN_ISSUER, DEFAULT_OWN_AUDIENCE } from './credentials/jwt/own-token-names.js';
