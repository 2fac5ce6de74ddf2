import { AuthConfigError } from '../../shared/auth-config-error.js';

/**
 * Validates the `issuer` option shared by the signer and the verifier. An empty issuer is refused
 * because "configured but empty" is almost certainly a missing environment variable.
 *
 * @example
 * readIssuerOption(process.env.JWT_ISSUER); // undefined when unset, throws when ''
 */
export function readIssuerOption(issuer: unknown): string | undefined {
  if (issuer === undefined) return undefined;
  if (typeof issuer !== 'string' || issuer === '') throw new AuthConfigError('issuer must be a non-empty string when set');
  return issuer;
}

/**
 * Validates the `audience` option shared by the signer and the verifier: a non-empty string or a
 * non-empty array of non-empty strings. Arrays are copied and frozen so later edits by the caller
 * cannot change what is signed or accepted.
 *
 * @example
 * readAudienceOption(['api', 'admin-api']); // frozen ['api', 'admin-api']
 */
export function readAudienceOption(audience: unknown): string | readonly string[] | undefined {
  if (audience === undefined) return undefined;
  if (typeof audience === 'string' && audience !== '') return audience;
  if (Array.isArray(audience) && audience.length > 0 && audience.every((entry) => typeof entry === 'string' && entry !== '')) {
    return Object.freeze([...(audience as string[])]);
  }
  throw new AuthConfigError('audience must be a non-empty string or a non-empty array of non-empty strings when set');
}
