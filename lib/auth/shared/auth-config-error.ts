import { TesseraError } from '../../index.js';
/**
 * Thrown at startup when the auth configuration is unusable (for example a secret too short for
 * its algorithm). Messages describe the problem with sizes and names only; they never contain
 * the secret or any part of it.
 *
 * @example
 * try { assertSecretLength(secret, 'HS256'); } catch (err) { if (err instanceof AuthConfigError) process.exit(1); }
 */
export class AuthConfigError extends TesseraError {

  constructor(message: string) {
    super('AUTH_CONFIG', message);
  }
}
