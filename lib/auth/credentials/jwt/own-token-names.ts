/**
 * The `iss` an app's own tokens carry and require when it issues tokens and sets no `issuer`
 * (ASVS 5.0 9.2.3). A token minted with the same secret but without `iss` and `aud`, or with
 * another service's, is refused. Two apps that share a secret and both keep the defaults still
 * accept each other's tokens: such apps set `issuer` and `audience` to names of their own.
 *
 * @example
 * DEFAULT_OWN_ISSUER; // 'tessera-http'
 */
export const DEFAULT_OWN_ISSUER = 'tessera-http';

/**
 * The `aud` an app's own tokens carry and require when it issues tokens and sets no `audience`
 * (see {@link DEFAULT_OWN_ISSUER}).
 *
 * @example
 * DEFAULT_OWN_AUDIENCE; // 'tessera-http'
 */
export const DEFAULT_OWN_AUDIENCE = 'tessera-http';

/**
 * The `issuer` and `audience` of the app's own tokens: as given, or, for an app that issues
 * tokens (`issuing` set), the defaults, so that `iss` and `aud` are always signed and checked on
 * the tokens it makes. A verify-only module (no `issuing`) checks only what it is told: the
 * tokens it verifies are another service's, whose names it must be given.
 *
 * @example
 * ownTokenNames({ issuing: {...} }); // { issuer: 'tessera-http', audience: 'tessera-http' }
 */
export function ownTokenNames(options: { readonly issuing?: unknown; readonly issuer?: string | undefined; readonly audience?: string | readonly string[] | undefined }): {
  readonly issuer: string | undefined;
  readonly audience: string | readonly string[] | undefined;
} {
  if (options.issuing === undefined) return { issuer: options.issuer, audience: options.audience };
  return { issuer: options.issuer ?? DEFAULT_OWN_ISSUER, audience: options.audience ?? DEFAULT_OWN_AUDIENCE };
}
