export { AuthConfigError } from './auth-config-error.js';
export { assertSecretLength } from './secret-length.js';
export { HMAC_ALGORITHMS } from './hmac-algorithm.js';
export type { HmacAlgorithm } from './hmac-algorithm.js';
export { TOKEN_TYPE_HEADERS, isAccessTokenType } from './token-type.js';
export type { TokenType } from './token-type.js';
export { createTokenSigner } from './token-signer.js';
export type { SignOptions, SignedToken, TokenSigner, TokenSignerOptions } from './token-signer.js';
export { MAX_TOKEN_LENGTH, createAccessTokenVerifier } from './access-token-verifier.js';
export type { AccessTokenVerifier, AccessTokenVerifierOptions } from './access-token-verifier.js';
export type { VerificationCacheStats } from './verification-cache.js';
export type {
  VerificationFailure,
  VerificationFailureReason,
  VerificationResult,
  VerifiedToken,
} from './verification-result.js';
