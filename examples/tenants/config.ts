import type { AsymmetricAlgorithm } from '../../lib/auth/index.js';

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
 * | AUTH_JWKS_URL | unset: only the app's own tokens |
 * | AUTH_JWKS_ISSUER | required with AUTH_JWKS_URL |
 * | AUTH_JWKS_AUDIENCE | required with AUTH_JWKS_URL (comma-separated for several) |
 * | AUTH_JWKS_ALGORITHMS | RS256,ES256,EdDSA |
 * | AUTH_CLOCK_TOLERANCE_SECONDS | 0 |
 * | SMTP_URL | unset: account mails are written to the log, not sent |
 * | MAIL_FROM | unset: nodemailer's default sender |
 * | APP_URL | http://127.0.0.1:3000 (where the links in account mails point) |
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
  /** An identity provider whose tokens are accepted beside the app's own (AUTH_JWKS_*). */
  readonly identityProvider: IdentityProviderConfig | undefined;
  readonly clockToleranceSeconds: number;
  /** Where account mails go (`smtp://127.0.0.1:2525`); undefined: they are logged, not sent (development). */
  readonly smtpUrl: string | undefined;
  /** The sender of account mails; undefined: nodemailer's default. */
  readonly mailFrom: string | undefined;
  /** The base of the links in account mails (`<APP_URL>/verify-email?token=...`). */
  readonly appUrl: string;
}

/**
 * The outside identity provider of the tenants app, from AUTH_JWKS_URL, AUTH_JWKS_ISSUER,
 * AUTH_JWKS_AUDIENCE and AUTH_JWKS_ALGORITHMS.
 *
 * @example
 * const idp: IdentityProviderConfig = { jwksUrl: 'https://id.acme.test/jwks', issuer: 'https://id.acme.test/', audience: ['tenants-api'], algorithms: ['RS256'] };
 */
export interface IdentityProviderConfig {
  readonly jwksUrl: string;
  readonly issuer: string;
  readonly audience: readonly string[];
  readonly algorithms: readonly AsymmetricAlgorithm[] | undefined;
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
    identityProvider: readIdentityProvider(env),
    clockToleranceSeconds: nonNegativeInteger('AUTH_CLOCK_TOLERANCE_SECONDS', env.AUTH_CLOCK_TOLERANCE_SECONDS, 0),
    smtpUrl: readSmtpUrl(env.SMTP_URL),
    mailFrom: env.MAIL_FROM === undefined || env.MAIL_FROM === '' ? undefined : env.MAIL_FROM,
    appUrl: readAppUrl(env.APP_URL),
  };
}

/** An smtp:// or smtps:// URL, checked at start rather than at the first mail. */
function readSmtpUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  let protocol: string;
  try {
    protocol = new URL(value).protocol;
  } catch {
    throw new Error('SMTP_URL must be a URL such as smtp://127.0.0.1:2525 or smtps://user:password@smtp.example.com');
  }
  if (protocol !== 'smtp:' && protocol !== 'smtps:') throw new Error('SMTP_URL must start with smtp:// or smtps://');
  return value;
}

/** The origin (and optional path) of the app's pages, without a trailing slash. */
function readAppUrl(value: string | undefined): string {
  if (value === undefined || value === '') return 'http://127.0.0.1:3000';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error('APP_URL must be an absolute http(s) URL such as https://app.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('APP_URL must be an http(s) URL');
  return value.replace(/\/+$/, '');
}

function list(value: string | undefined): string[] {
  return (value ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
}

/** Undefined without AUTH_JWKS_URL; with it, issuer and audience are required (never "any audience"). */
function readIdentityProvider(env: Record<string, string | undefined>): IdentityProviderConfig | undefined {
  const jwksUrl = env.AUTH_JWKS_URL;
  if (jwksUrl === undefined || jwksUrl === '') return undefined;
  const issuer = env.AUTH_JWKS_ISSUER;
  const audience = list(env.AUTH_JWKS_AUDIENCE);
  if (issuer === undefined || issuer === '') throw new Error('AUTH_JWKS_ISSUER must be set with AUTH_JWKS_URL (the iss of the provider\'s tokens).');
  if (audience.length === 0) throw new Error('AUTH_JWKS_AUDIENCE must be set with AUTH_JWKS_URL (the aud the provider writes for this API).');
  const algorithms = list(env.AUTH_JWKS_ALGORITHMS);
  return { jwksUrl, issuer, audience, algorithms: algorithms.length === 0 ? undefined : (algorithms as AsymmetricAlgorithm[]) };
}
