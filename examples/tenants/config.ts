/**
 * The tenants app's configuration, read from the environment once at start.
 *
 * | variable | default |
 * | --- | --- |
 * | AUTH_SECRET | a development secret (with a loud warning) |
 * | REFRESH_REUSE_GRACE_SECONDS | 0 |
 * | API_KEY_RATE_LIMIT | 100 requests per window, per key |
 * | API_KEY_RATE_WINDOW_MS | 60000 |
 * | API_KEY_CACHE_SECONDS | 0 (every request reads the key store) |
 * | TRUSTED_PROXY_HOPS | 0 (X-Forwarded-For ignored) |
 */
export interface TenantsConfig {
  readonly secret: string;
  readonly issuer: 'tessera-tenants';
  readonly audience: 'tessera-tenants-api';
  readonly refreshReuseGraceSeconds: number;
  readonly apiKeyRateLimit: number;
  readonly apiKeyRateWindowMs: number;
  readonly apiKeyCacheSeconds: number;
  readonly trustedProxyHops: number;
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
    apiKeyRateLimit: nonNegativeInteger('API_KEY_RATE_LIMIT', env.API_KEY_RATE_LIMIT, 100),
    apiKeyRateWindowMs: nonNegativeInteger('API_KEY_RATE_WINDOW_MS', env.API_KEY_RATE_WINDOW_MS, 60_000) || 60_000,
    apiKeyCacheSeconds: nonNegativeInteger('API_KEY_CACHE_SECONDS', env.API_KEY_CACHE_SECONDS, 0),
    trustedProxyHops: nonNegativeInteger('TRUSTED_PROXY_HOPS', env.TRUSTED_PROXY_HOPS, 0),
  };
}
