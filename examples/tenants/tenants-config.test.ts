import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../lib/index.js';
import { DEVELOPMENT_SECRET, readTenantsConfig } from './config.js';

const SECRET = 'tenants-test-secret-0123456789abcdef';

/** The ConfigError readTenantsConfig throws for `env`. */
function failure(env: Record<string, string>): ConfigError {
  try {
    readTenantsConfig(env, () => undefined);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('the configuration was accepted');
}

describe('tenants configuration (TenantsEnv)', () => {
  it('has the documented defaults', () => {
    expect(readTenantsConfig({ AUTH_SECRET: SECRET }, () => undefined)).toEqual({
      secret: SECRET,
      issuer: 'tessera-tenants',
      audience: 'tessera-tenants-api',
      refreshReuseGraceSeconds: 0,
      sessionMaxAgeSeconds: 2_592_000,
      apiKeyRateLimit: 100,
      apiKeyRateWindowMs: 60_000,
      apiKeyCacheSeconds: 0,
      trustedProxyHops: 0,
      identityProvider: undefined,
      clockToleranceSeconds: 0,
      appUrl: 'http://127.0.0.1:3000',
      smtpUrl: undefined,
      mailFrom: undefined,
      factorEncryptionKeys: [expect.stringMatching(/^[A-Za-z0-9_-]{43}$/)],
      passkeys: { rpId: '127.0.0.1', origins: ['http://127.0.0.1:3000'] },
      stepUpSeconds: 300,
      purgeCron: '0 0 * * * *',
    });
  });

  it('derives the factor key from the secret unless FACTOR_ENCRYPTION_KEYS is set, in that order', () => {
    const derived = readTenantsConfig({ AUTH_SECRET: SECRET }, () => undefined).factorEncryptionKeys;
    expect(readTenantsConfig({ AUTH_SECRET: `${SECRET}x` }, () => undefined).factorEncryptionKeys, 'another secret, another key').not.toEqual(derived);
    const own = 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8';
    expect(readTenantsConfig({ AUTH_SECRET: SECRET, FACTOR_ENCRYPTION_KEYS: `${own}, ${derived[0]}` }, () => undefined).factorEncryptionKeys).toEqual([own, derived[0]]);
  });

  it('reads PURGE_CRON, and refuses one that is not a cron expression, naming it', () => {
    expect(readTenantsConfig({ AUTH_SECRET: SECRET, PURGE_CRON: '0 */15 * * * *' }, () => undefined).purgeCron, 'a cron with seconds is read').toBe('0 */15 * * * *');
    expect(() => readTenantsConfig({ AUTH_SECRET: SECRET, PURGE_CRON: 'every hour' }, () => undefined), 'a wrong PURGE_CRON is refused by name').toThrow(/PURGE_CRON/);
  });

  it('warns loudly and uses the public development secret when AUTH_SECRET is unset or empty', () => {
    const warnings: string[] = [];
    expect(readTenantsConfig({}, (m) => warnings.push(m)).secret).toBe(DEVELOPMENT_SECRET);
    expect(readTenantsConfig({ AUTH_SECRET: '' }, (m) => warnings.push(m)).secret).toBe(DEVELOPMENT_SECRET);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/AUTH_SECRET is not set.*DEVELOPMENT secret/s);
  });

  it('reads numbers, lists and the identity provider', () => {
    const config = readTenantsConfig(
      { AUTH_SECRET: SECRET, API_KEY_RATE_LIMIT: '7', API_KEY_RATE_WINDOW_MS: '0', AUTH_JWKS_URL: 'https://id.acme.test/jwks', AUTH_JWKS_ISSUER: 'https://id.acme.test/', AUTH_JWKS_AUDIENCE: 'a, b', AUTH_JWKS_ALGORITHMS: 'RS256' },
      () => undefined,
    );
    expect(config.apiKeyRateLimit).toBe(7);
    expect(config.apiKeyRateWindowMs, 'a window of 0 keeps the default').toBe(60_000);
    expect(config.identityProvider).toEqual({ jwksUrl: 'https://id.acme.test/jwks', issuer: 'https://id.acme.test/', audience: ['a', 'b'], algorithms: ['RS256'] });
  });

  it('reports every wrong variable at once, by name', () => {
    const error = failure({ AUTH_SECRET: SECRET, API_KEY_RATE_LIMIT: '-1', TRUSTED_PROXY_HOPS: 'two', AUTH_JWKS_URL: 'https://id.acme.test/jwks' });
    expect(error.problems.map((p) => p.variable)).toEqual(['API_KEY_RATE_LIMIT', 'TRUSTED_PROXY_HOPS', 'AUTH_JWKS_ISSUER', 'AUTH_JWKS_AUDIENCE']);
  });

  it('refuses a short AUTH_SECRET without printing it, and never prints SMTP_URL\u2019s password', () => {
    const error = failure({ AUTH_SECRET: 'short-but-secret-value', SMTP_URL: 'http://user:p4ssw0rd@mail.example' });
    expect(error.problems.map((p) => p.variable)).toEqual(['AUTH_SECRET', 'SMTP_URL']);
    expect(error.message).not.toMatch(/short-but-secret-value|p4ssw0rd/);
  });
});
