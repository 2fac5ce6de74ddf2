import type { TrustedIssuerOptions } from './trusted-issuer-options.js';

/**
 * Which access tokens the guards accept beside the checks of the app's own (`OwnTokenOptions`):
 * outside issuers, clock skew, and whether an own token must say `typ: at+jwt`. Part of
 * `AuthModuleOptions`.
 *
 * @example
 * const acceptance: TokenAcceptanceOptions = { trustedIssuers: [auth0], clockToleranceSeconds: 30, requireAccessTokenType: true };
 */
export interface TokenAcceptanceOptions {
  /**
   * Identity providers (Auth0, Keycloak, Cognito, Entra, ...) whose access tokens are accepted
   * beside the app's own, each with its `issuer`, `audience`, keys (`jwksUrl`, `jwks` or
   * `publicKeys`) and `algorithms` (default RS256, ES256, EdDSA). A token goes to the verifier its
   * `iss` names; its claims pass the same claims schema as the app's own tokens.
   */
  readonly trustedIssuers?: readonly TrustedIssuerOptions[];
  /** Seconds of clock skew allowed on `exp`, `nbf` and `iat`, for every issuer; default 0. */
  readonly clockToleranceSeconds?: number;
  /**
   * When true, the app's own tokens must say `typ: at+jwt` (RFC 9068), as the ones it issues do.
   * By default tokens without `typ` or with `typ: JWT` are accepted too; any other `typ` never is.
   */
  readonly requireAccessTokenType?: boolean;
}
