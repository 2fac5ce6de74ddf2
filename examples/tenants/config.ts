/**
 * The tenants app's configuration, read from the environment once at start.
 *
 * | variable | default |
 * | --- | --- |
 * | AUTH_SECRET | a development secret (with a loud warning) |
 * | REFRESH_REUSE_GRACE_SECONDS | 0 |
 */
export interface TenantsConfig {
  readonly secret: string;
  readonly issuer: 'tessera-tenants';
  readonly audience: 'tessera-tenants-api';
  readonly refreshReuseGraceSeconds: number;
}

/** Never use this outside development: it is public in this repository. */
export const DEVELOPMENT_SECRET = 'tessera-tenants-development-secret-do-not-use-in-production';

function nonNegativeInteger(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative integer.`);
  return parsed;
}

/**
 * Reads the configuration; `warn` receives the warning about a missing secret.
 *
 * @example
 * const config = readTenantsConfig(process.env);
 */
export function readTenantsConfig(env: Record<string, string | undefined>, warn: (message: string) => void = console.warn): TenantsConfig {
  let secret = env.AUTH_SECRET;
  if (secret === undefined || secret === '') {
    warn('\n*** WARNING: AUTH_SECRET is not set. Using the public DEVELOPMENT secret: anyone can forge tokens. ***\n*** Set AUTH_SECRET (at least 32 bytes) before exposing this server. ***\n');
    secret = DEVELOPMENT_SECRET;
  }
  return {
    secret,
    issuer: 'tessera-tenants',
    audience: 'tessera-tenants-api',
    refreshReuseGraceSeconds: nonNegativeInteger('REFRESH_REUSE_GRACE_SECONDS', env.REFRESH_REUSE_GRACE_SECONDS, 0),
  };
}
