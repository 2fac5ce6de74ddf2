// SPEC "API keys" 15: no key, secret or hash appears in an error message, log line or result.
// Drives every failure path (and success) with stores that echo request data into their own
// errors, and collects everything observable: results, anything thrown, console output and
// unhandled rejections. Then searches all of it for every sensitive string.
import { bytesToHex } from '@noble/hashes/utils.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createManualClock } from '../../../common/clock.js';
import { ApiKeyAuthenticator } from './api-key-authenticator.js';
import type { ApiKeyRecord } from './api-key-record.js';
import type { ApiKeyStore } from './api-key-store.js';
import { claimsSchema, validClaims, withWrongSecret } from './api-key.test-helper.js';
import { DUMMY_SECRET_DIGEST } from './dummy-secret-digest.js';
import { generateApiKey } from './generate-api-key.js';
import type { GeneratedApiKey } from './generate-api-key.js';
import { hashApiKeySecret } from './hash-api-key-secret.js';
import { InMemoryApiKeyStore } from './in-memory-api-key-store.js';
import { parseApiKey } from './parse-api-key.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');

/** A store whose failures put everything it was given into the error, like a careless driver. */
class LeakyStore implements ApiKeyStore {
  readonly inner = new InMemoryApiKeyStore();
  failFind = false;
  find(id: string): ApiKeyRecord | undefined {
    if (this.failFind) throw new Error(`find failed for ${id}: ${JSON.stringify(this.inner.find(id))}`);
    return this.inner.find(id);
  }
  touch(id: string): Promise<void> {
    return Promise.reject(new Error(`touch failed for ${JSON.stringify(this.inner.find(id))}`));
  }
}

describe('API key failures leak no key, secret or hash', () => {
  const observed: string[] = [];
  const onUnhandled = (reason: unknown): void => {
    observed.push(`unhandled: ${String(reason)}`);
  };

  beforeEach(() => {
    observed.length = 0;
    for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        observed.push(`console.${method}: ${args.map((a) => (a instanceof Error ? `${a.message} ${a.stack ?? ''}` : String(a))).join(' ')}`);
      });
    }
    process.on('unhandledRejection', onUnhandled);
  });

  afterEach(() => {
    vi.restoreAllMocks();
    process.off('unhandledRejection', onUnhandled);
  });

  it('across every failure path', async () => {
    const store = new LeakyStore();
    const clock = createManualClock(T0);
    const authenticator = new ApiKeyAuthenticator({ store, claimsSchema, clock, lastUsedIntervalSeconds: 0 });
    const add = (overrides: Partial<ApiKeyRecord> = {}): GeneratedApiKey => {
      const generated = generateApiKey();
      store.inner.add({ id: generated.id, secretHash: generated.secretHash, claims: validClaims, ...overrides });
      return generated;
    };
    const ok = add();
    const revoked = add({ revokedAt: new Date(T0) });
    const expired = add({ expiresAt: new Date(T0) });
    const fenced = add({ allowedCidrs: ['10.0.0.0/8'] });
    const badClaims = add({ claims: { sub: ok.key } }); // the schema's error would quote the value
    const badNetwork = add({ allowedCidrs: [`${ok.key}/8`] });
    const unknown = generateApiKey();
    const wrong = withWrongSecret(ok.key);

    const attempts: Array<{ key: string; socketAddress: string | undefined; forwardedFor: string | null }> = [
      { key: ` ${ok.key}`, socketAddress: undefined, forwardedFor: null },
      { key: `${ok.key}x`, socketAddress: undefined, forwardedFor: null },
      { key: ok.key.toUpperCase(), socketAddress: undefined, forwardedFor: null },
      { key: unknown.key, socketAddress: undefined, forwardedFor: null },
      { key: wrong, socketAddress: undefined, forwardedFor: null },
      { key: revoked.key, socketAddress: undefined, forwardedFor: null },
      { key: expired.key, socketAddress: undefined, forwardedFor: null },
      { key: fenced.key, socketAddress: '192.0.2.1', forwardedFor: null },
      { key: fenced.key, socketAddress: undefined, forwardedFor: '10.0.0.1' },
      { key: badClaims.key, socketAddress: undefined, forwardedFor: null },
      { key: badNetwork.key, socketAddress: '10.0.0.1', forwardedFor: null },
      { key: ok.key, socketAddress: undefined, forwardedFor: null }, // success; its touch rejects
    ];
    const statuses: Array<number | 'ok'> = [];
    for (const attempt of attempts) {
      try {
        const result = await authenticator.authenticate(attempt);
        observed.push(JSON.stringify(result), String(result));
        statuses.push(result.ok ? 'ok' : result.status);
      } catch (error) {
        observed.push(`thrown: ${String(error)} ${error instanceof Error ? (error.stack ?? '') : ''}`);
      }
    }
    store.failFind = true;
    for (const key of [ok.key, wrong, unknown.key]) {
      const result = await authenticator.authenticate({ key, socketAddress: undefined, forwardedFor: null });
      observed.push(JSON.stringify(result));
      statuses.push(result.ok ? 'ok' : result.status);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));

    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 401, 401, 503, 'ok', 503, 503, 503]);

    const sensitive = new Set<string>([bytesToHex(DUMMY_SECRET_DIGEST), bytesToHex(DUMMY_SECRET_DIGEST).toUpperCase()]);
    for (const key of [ok.key, wrong, unknown.key, revoked.key, expired.key, fenced.key, badClaims.key, badNetwork.key]) {
      const secret = parseApiKey(key)?.secret ?? '';
      expect(secret).toHaveLength(43);
      for (const value of [key, secret, hashApiKeySecret(secret), hashApiKeySecret(secret).toUpperCase()]) sensitive.add(value);
    }
    const everything = observed.join('\n');
    expect(observed.length).toBeGreaterThan(15);
    for (const value of sensitive) {
      expect(everything.includes(value), `leaked a sensitive value of length ${value.length}`).toBe(false);
    }
  });
});
