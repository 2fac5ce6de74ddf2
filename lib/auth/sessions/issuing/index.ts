// Public surface of token issuing: the service, the store contracts, the in-memory reference
// stores and the refresh-token helpers (exported for custom stores and audits).
export { TokenIssuingService } from './token-issuing-service.js';
export {
  DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
  DEFAULT_REFRESH_REUSE_GRACE_SECONDS,
  DEFAULT_REFRESH_TOKEN_TTL_SECONDS,
  DEFAULT_SESSION_MAX_AGE_SECONDS,
  resolveTokenLifetimes,
} from './token-issuing-options.js';
export type { ResolvedTokenLifetimes, TokenIssuingServiceDeps, TokenIssuingServiceOptions, TokenLifetimeOptions } from './token-issuing-options.js';
export type { AccessTokenSigner } from './access-token-signer.js';
export type { SessionRevocationListener } from '../state/session-revocation-listener.js';
export { newSessionId, sessionStartOf } from '../state/session-id.js';
export { createDefaultPasswordVerifier } from './password-verifier.js';
export type { PasswordVerifier } from './password-verifier.js';
export { validateLoadedClaims } from './validate-claims.js';
export type { ClaimsSchema } from './validate-claims.js';
export { INVALID_CREDENTIALS_MESSAGE, invalidCredentials } from './invalid-credentials.js';
export type { TokenPair } from './token-pair.js';
export type { SignInContext } from './sign-in-context.js';
export type { Awaitable } from '../../shared/awaitable.js';
export type { CredentialStore, RehashingCredentialStore, StoredCredential } from './credential-store.js';
export { replacesPasswordHashes } from './credential-store.js';
export type { RefreshTokenStore, RevokedFamily } from './refresh-token-store.js';
export { completeRefreshTokenStore } from './complete-refresh-token-store.js';
export type { CompleteRefreshTokenStore, ReuseRevocation } from './complete-refresh-token-store.js';
export type { StoredSession } from '../state/stored-session.js';
export type { NewRefreshToken, RefreshTokenRecord, RefreshTokenSuccessor } from './refresh-token-record.js';
export { isWithinReuseGrace, refreshTokenState } from './refresh-token-state.js';
export type { RefreshTokenState } from './refresh-token-state.js';
export { REFRESH_TOKEN_LENGTH, generateRefreshToken, isWellFormedRefreshToken } from './generate-refresh-token.js';
export { hashRefreshToken } from './hash-refresh-token.js';
export { InMemoryRefreshTokenStore } from './in-memory-refresh-token-store.js';
export type { StoredRefreshToken } from './in-memory-refresh-token-table.js';
export { InMemoryCredentialStore } from './in-memory-credential-store.js';
export type { InMemoryAccount } from './in-memory-credential-store.js';
export type { SecondFactorGate, SecondFactorStep, SecondFactorKind, SignInStep, GatedSessionIssuing } from './second-factor-gate.js';
export { SecondFactorRequiredException, secondFactorRequiredAnswer, SECOND_FACTOR_REQUIRED_TYPE, SECOND_FACTOR_REQUIRED_CODE } from './second-factor-required.js';
