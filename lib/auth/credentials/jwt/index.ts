export { AuthConfigError } from '../../shared/auth-config-error.js';
export { assertSecretLength } from './secret-length.js';
export { HMAC_ALGORITHMS } from './hmac-algorithm.js';
export type { HmacAlgorithm } from './hmac-algorithm.js';
export { TOKEN_TYPE_HEADERS, isAcceptedAccessTokenType } from './token-type.js';
export type { TokenType } from './token-type.js';
export { createTokenSigner } from './token-signer.js';
export type { SignOptions, SignedToken, TokenSigner, TokenSignerOptions } from './token-signer.js';
export { createAccessTokenVerifier, createHmacTokenCheck } from './access-token-verifier.js';
export { MAX_TOKEN_LENGTH } from './verification-front.js';
export type { VerificationCacheOption } from './verification-front.js';
export type { AccessTokenCheckOptions, AccessTokenVerifier, AccessTokenVerifierOptions, HmacTokenCheck } from './access-token-verifier.js';
export type { OwnTokenOptions } from './own-token-options.js';
export type { TokenAcceptanceOptions } from './token-acceptance-options.js';
export type { VerificationCacheStats } from './verification-cache.js';
export type {
  VerificationFailure,
  VerificationFailureReason,
  VerificationResult,
  VerifiedToken,
} from './verification-result.js';
export { createBearerTokenVerifier } from './bearer-token-verifier.js';
export type { BearerTokenVerifier, BearerTokenVerifierOptions } from './bearer-token-verifier.js';
export { DEFAULT_ISSUER_ALGORITHMS, readTrustedIssuers } from './trusted-issuer-options.js';
export type { AsymmetricAlgorithm, TrustedIssuerOptions } from './trusted-issuer-options.js';
export { readTolerance } from './token-policy.js';
