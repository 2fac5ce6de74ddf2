import { sha256 } from '@noble/hashes/sha2.js';
import { Cron } from 'croner';
import { z } from 'zod';
import { defineConfig, type ConfigSource } from '../../lib/index.js';
import type { AsymmetricAlgorithm } from '../../lib/auth/index.js';

/**
 * The tenants app's configuration, read from the environment once at start.
 *
 * | variable | default |
 * | --- | --- |
 * | AUTH_SECRET | a development secret (with a loud warning); else at least 32 characters |
 * | REFRESH_REUSE_GRACE_SECONDS | 0 |
 * | SESSION_MAX_AGE_SECONDS | 2592000 (30 days): a session ends this long after its sign-in, however often it is refreshed |
 * | API_KEY_RATE_LIMIT | 100 requests per window, per key |
 * | API_KEY_RATE_WINDOW_MS | 60000 |
 * | API_KEY_CACHE_SECONDS | 0 (every request reads the key store) |
 * | TRUSTED_PROXY_HOPS | 0 (X-Forwarded-For ignored) |
 * | AUTH_JWKS_URL | unset: only the app's own tokens |
 * | AUTH_JWKS_ISSUER | required with AUTH_JWKS_URL |
 * | AUTH_JWKS_AUDIENCE | required with AUTH_JWKS_URL (comma-separated for several) |
 * | AUTH_JWKS_ALGORITHMS | RS256,ES256,EdDSA |
 * | AUTH_CLOCK_TOLERANCE_SECONDS | 0 |
 * | SMTP_URL | unset: account mails are written to the log, not sent (links only with NODE_ENV=development; NODE_ENV=production refuses to start) |
 * | MAIL_FROM | unset: nodemailer's default sender |
 * | APP_URL | http://127.0.0.1:3000 (where the links in account mails point) |
 * | FACTOR_ENCRYPTION_KEYS | derived from AUTH_SECRET (set your own: comma-separated base64url 32-byte keys, the first seals the TOTP secrets) |
 * | PASSKEY_RP_ID | APP_URL's host name |
 * | PASSKEY_ORIGINS | APP_URL's origin (comma-separated for several) |
 * | STEP_UP_SECONDS | 300 (how recent a second factor or sign-in must be to create an API key) |
 * | OIDC_ISSUER | unset: no sign-in through an outside provider |
 * | OIDC_CLIENT_ID | required with OIDC_ISSUER |
 * | OIDC_CLIENT_SECRET | unset: a public client (PKCE only) |
 * | OIDC_LINK_VERIFIED_EMAIL | false (a verified e-mail of the provider links to the local account with that address only when true) |
 * | PURGE_CRON | 0 0 * * * * (hourly: the purge of expired tokens, challenges and flows and the sweep of ended rate-limit windows, once across instances) |
 */
export interface TenantsConfig {
  readonly secret: string;
  readonly issuer: 'tessera-tenants';
  readonly audience: 'tessera-tenants-api';
  readonly refreshReuseGraceSeconds: number;
  /** The absolute session lifetime, seconds (`issuing.sessionMaxAge`). */
  readonly sessionMaxAgeSeconds: number;
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
  /** The base of the links in account mails (`<APP_URL>/verify-email?token=...`), without a trailing slash. */
  readonly appUrl: string;
  /** The keys sealing TOTP secrets at rest (FACTOR_ENCRYPTION_KEYS, else one derived from the secret). */
  readonly factorEncryptionKeys: readonly string[];
  /** The passkeys' relying party: its id and the origins ceremonies may come from. */
  readonly passkeys: { readonly rpId: string; readonly origins: readonly string[] };
  /** How recent a second factor (or sign-in) must be for the routes behind step-up, seconds. */
  readonly stepUpSeconds: number;
  /** The outside OpenID provider people may sign in with, as provider `oidc` (OIDC_*); undefined: none. */
  readonly oidc: OidcConfig | undefined;
  /** When the purge job runs (a cron expression, seconds first when it has six fields; UTC). */
  readonly purgeCron: string;
}

/**
 * The tenants app's outside OpenID provider, from OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET
 * and OIDC_LINK_VERIFIED_EMAIL. Its redirect URI is `<APP_URL>/auth/oidc/oidc/callback`.
 *
 * @example
 * const oidc: OidcConfig = { issuer: 'https://id.acme.test/realms/acme', clientId: 'tenants', clientSecret: undefined, linkVerifiedEmail: false };
 */
export interface OidcConfig {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string | undefined;
  readonly linkVerifiedEmail: boolean;
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

const count = (fallback: number) => z.coerce.number().int().min(0).default(fallback);
const list = z
  .string()
  .optional()
  .transform((value) => (value ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry !== ''));

/**
 * The tenants app's environment as one schema: every variable, its default and its check. An
 * empty variable counts as unset. AUTH_JWKS_ISSUER and AUTH_JWKS_AUDIENCE are required with
 * AUTH_JWKS_URL (never "any audience"); every problem is reported at once, the values of
 * AUTH_SECRET and SMTP_URL (which may hold a password) never.
 *
 * @example
 * const env = TenantsEnv.load(process.env); // env.API_KEY_RATE_LIMIT: number
 */
export const TenantsEnv = defineConfig(
  z
    .object({
      AUTH_SECRET: z.string().min(32).optional(),
      REFRESH_REUSE_GRACE_SECONDS: count(0),
      // No 0: a session must end some time (the module refuses an absent lifetime too).
      SESSION_MAX_AGE_SECONDS: z.coerce.number().int().min(1).default(2_592_000),
      API_KEY_RATE_LIMIT: count(100),
      // 0 keeps the default window: a window of no time would count nothing.
      API_KEY_RATE_WINDOW_MS: count(60_000).transform((ms) => ms || 60_000),
      API_KEY_CACHE_SECONDS: count(0),
      TRUSTED_PROXY_HOPS: count(0),
      AUTH_JWKS_URL: z.url().optional(),
      AUTH_JWKS_ISSUER: z.string().optional(),
      AUTH_JWKS_AUDIENCE: list,
      AUTH_JWKS_ALGORITHMS: list,
      AUTH_CLOCK_TOLERANCE_SECONDS: count(0),
      SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL, such as smtp://127.0.0.1:2525' }).optional(),
      MAIL_FROM: z.string().optional(),
      APP_URL: z
        .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL, such as https://app.example.com' })
        .default('http://127.0.0.1:3000')
        .transform((url) => url.replace(/\/+$/, '')),
      FACTOR_ENCRYPTION_KEYS: list,
      PASSKEY_RP_ID: z.string().optional(),
      PASSKEY_ORIGINS: list,
      STEP_UP_SECONDS: z.coerce.number().int().min(1).default(300),
      OIDC_ISSUER: z.url({ protocol: /^https?$/, error: 'must be the provider\'s issuer URL, such as https://id.example.com/realms/acme' }).optional(),
      OIDC_CLIENT_ID: z.string().optional(),
      OIDC_CLIENT_SECRET: z.string().optional(),
      OIDC_LINK_VERIFIED_EMAIL: z.enum(['true', 'false']).default('false').transform((value) => value === 'true'),
      PURGE_CRON: z
        .string()
        .default('0 0 * * * *')
        .refine(isCron, 'must be a cron expression, such as 0 0 * * * * (hourly) or 0 */15 * * * * (every 15 minutes)'),
    })
    .superRefine(
      (env, ctx) => {
        if (env.OIDC_ISSUER !== undefined && env.OIDC_CLIENT_ID === undefined) ctx.addIssue({ code: 'custom', path: ['OIDC_CLIENT_ID'], message: 'must be set with OIDC_ISSUER (the client id the provider gave this app)' });
        if (env.AUTH_JWKS_URL === undefined) return;
        if (env.AUTH_JWKS_ISSUER === undefined) ctx.addIssue({ code: 'custom', path: ['AUTH_JWKS_ISSUER'], message: "must be set with AUTH_JWKS_URL (the iss of the provider's tokens)" });
        if (env.AUTH_JWKS_AUDIENCE.length === 0) ctx.addIssue({ code: 'custom', path: ['AUTH_JWKS_AUDIENCE'], message: 'must be set with AUTH_JWKS_URL (the aud the provider writes for this API)' });
      },
      // Checked even when another variable is wrong, so that every problem is told at once.
      { when: () => true },
    ),
  { name: 'TenantsConfig', secrets: ['AUTH_SECRET', 'SMTP_URL', 'FACTOR_ENCRYPTION_KEYS', 'OIDC_CLIENT_SECRET'] },
);

/**
 * Reads the configuration (see {@link TenantsEnv}); `warn` receives the warning about a missing
 * secret. Throws a `ConfigError` listing every variable that is wrong.
 *
 * @example
 * const config = readTenantsConfig(process.env);
 */
export function readTenantsConfig(env: ConfigSource, warn: (message: string) => void = console.warn): TenantsConfig {
  const values = TenantsEnv.load(env);
  let secret = values.AUTH_SECRET;
  if (secret === undefined) {
    warn('\n*** WARNING: AUTH_SECRET is not set. Using the public DEVELOPMENT secret: anyone can forge tokens. ***\n*** Set AUTH_SECRET (at least 32 bytes) before exposing this server. ***\n');
    secret = DEVELOPMENT_SECRET;
  }
  const jwksUrl = values.AUTH_JWKS_URL;
  return {
    secret,
    issuer: 'tessera-tenants',
    audience: 'tessera-tenants-api',
    refreshReuseGraceSeconds: values.REFRESH_REUSE_GRACE_SECONDS,
    sessionMaxAgeSeconds: values.SESSION_MAX_AGE_SECONDS,
    apiKeyRateLimit: values.API_KEY_RATE_LIMIT,
    apiKeyRateWindowMs: values.API_KEY_RATE_WINDOW_MS,
    apiKeyCacheSeconds: values.API_KEY_CACHE_SECONDS,
    trustedProxyHops: values.TRUSTED_PROXY_HOPS,
    identityProvider:
      jwksUrl === undefined
        ? undefined
        : {
            jwksUrl,
            issuer: values.AUTH_JWKS_ISSUER ?? '',
            audience: values.AUTH_JWKS_AUDIENCE,
            algorithms: values.AUTH_JWKS_ALGORITHMS.length === 0 ? undefined : (values.AUTH_JWKS_ALGORITHMS as readonly AsymmetricAlgorithm[]),
          },
    clockToleranceSeconds: values.AUTH_CLOCK_TOLERANCE_SECONDS,
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM,
    appUrl: values.APP_URL,
    factorEncryptionKeys: values.FACTOR_ENCRYPTION_KEYS.length > 0 ? values.FACTOR_ENCRYPTION_KEYS : [derivedFactorKey(secret)],
    passkeys: { rpId: values.PASSKEY_RP_ID ?? new URL(values.APP_URL).hostname, origins: values.PASSKEY_ORIGINS.length > 0 ? values.PASSKEY_ORIGINS : [new URL(values.APP_URL).origin] },
    stepUpSeconds: values.STEP_UP_SECONDS,
    oidc:
      values.OIDC_ISSUER === undefined
        ? undefined
        : { issuer: values.OIDC_ISSUER, clientId: values.OIDC_CLIENT_ID ?? '', clientSecret: values.OIDC_CLIENT_SECRET, linkVerifiedEmail: values.OIDC_LINK_VERIFIED_EMAIL },
    purgeCron: values.PURGE_CRON,
  };
}

/**
 * A factor key derived from the auth secret (SHA-256 with a label), so the example runs without
 * FACTOR_ENCRYPTION_KEYS. A real app sets its own key, kept apart from the token secret: then a
 * leaked signing secret does not open the TOTP secrets, and either can be rotated alone.
 */
function derivedFactorKey(secret: string): string {
  const digest = sha256(new TextEncoder().encode(`tessera-tenants factor key\n${secret}`));
  return btoa(String.fromCharCode(...digest)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Whether croner reads the expression (six fields: seconds first). */
function isCron(expression: string): boolean {
  try {
    new Cron(expression, { paused: true }).stop();
    return true;
  } catch {
    return false;
  }
}
