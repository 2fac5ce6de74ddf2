import { decodeBase64 } from '../../internal/primitives.js';
import { AuthConfigError } from '../shared/auth-config-error.js';
import type { SecondFactorOptions } from './second-factor-options.js';

/**
 * Fails `forRoot` (rather than the first sign-in) for second-factor options that cannot work:
 * no issuing, no or malformed encryption keys, no TOTP issuer name, incomplete passkeys, or
 * windows that are not positive whole seconds.
 *
 * @example
 * checkSecondFactorOptions(options); // throws AuthConfigError
 */
export function checkSecondFactorOptions(options: { readonly issuing?: unknown; readonly secondFactors?: SecondFactorOptions | undefined }): void {
  const factors = options.secondFactors;
  if (factors === undefined) return;
  if (options.issuing === undefined) throw new AuthConfigError('secondFactors needs issuing: the factors gate the sessions it issues');
  const keys = factors.encryptionKeys;
  if (!Array.isArray(keys) || keys.length === 0) throw new AuthConfigError('secondFactors.encryptionKeys needs at least one key (32 random bytes, base64url)');
  for (const key of keys) {
    const bare = typeof key === 'string' ? key.replace(/=+$/, '') : '';
    const bytes = decodeBase64(bare, 'url') ?? decodeBase64(bare, 'standard');
    if (bytes === undefined || bytes.length !== 32) throw new AuthConfigError('each secondFactors.encryptionKeys entry must be 32 random bytes in base64url (openssl rand -base64 32)');
  }
  if (typeof factors.totpIssuer !== 'string' || factors.totpIssuer.trim() === '' || factors.totpIssuer.includes(':')) throw new AuthConfigError('secondFactors.totpIssuer must be a non-empty name without ":"');
  for (const [name, value] of [['pendingSignInSeconds', factors.pendingSignInSeconds], ['stepUpSeconds', factors.stepUpSeconds], ['passkeys.challengeSeconds', factors.passkeys?.challengeSeconds]] as const) {
    if (value !== undefined && !(Number.isInteger(value) && value > 0)) throw new AuthConfigError(`secondFactors.${name} must be a positive whole number of seconds`);
  }
  const passkeys = factors.passkeys;
  if (passkeys !== undefined) {
    if (typeof passkeys.rpId !== 'string' || passkeys.rpId === '' || typeof passkeys.rpName !== 'string' || passkeys.rpName === '') throw new AuthConfigError('secondFactors.passkeys needs rpId and rpName');
    if (!Array.isArray(passkeys.origins) || passkeys.origins.length === 0 || passkeys.origins.some((origin) => typeof origin !== 'string' || !/^https?:\/\/[^/]+$/.test(origin))) {
      throw new AuthConfigError('secondFactors.passkeys.origins needs one or more origins (scheme://host[:port], no path)');
    }
  }
}
