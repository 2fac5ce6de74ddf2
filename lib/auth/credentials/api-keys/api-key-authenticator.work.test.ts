// Structural proof of SPEC "API keys" 6: every well-formed key, whatever the outcome, costs
// exactly one SHA-256 of the presented secret and one constant-time comparison of two 32-byte
// digests, and an unknown id is compared against the dummy digest. The hash and the comparison
// are wrapped in spies through module mocks, so the production code has no injection hook.
import { bytesToHex } from '@noble/hashes/utils.js';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createManualClock } from '../../../common/clock.js';
import { constantTimeEqual } from '../../shared/constant-time-equal.js';
import { ApiKeyAuthenticator } from './api-key-authenticator.js';
import type { ApiKeyAuthenticatorOptions } from './api-key-authenticator.js';
import { CountingStore, addKey, claimsSchema, noAddress, randomUnknownKey, withWrongSecret } from './api-key.test-helper.js';
import type { TestClaims } from './api-key.test-helper.js';
import { DUMMY_SECRET_DIGEST } from './dummy-secret-digest.js';
import { digestApiKeySecret, hashApiKeySecret } from './hash-api-key-secret.js';
import { parseApiKey } from './parse-api-key.js';

vi.mock('./hash-api-key-secret.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('./hash-api-key-secret.js')>();
  return { ...original, digestApiKeySecret: vi.fn(original.digestApiKeySecret) };
});
vi.mock('../../shared/constant-time-equal.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../shared/constant-time-equal.js')>();
  return { constantTimeEqual: vi.fn(original.constantTimeEqual) };
});

const digestSpy = vi.mocked(digestApiKeySecret);
const compareSpy = vi.mocked(constantTimeEqual);
const T0 = Date.parse('2026-01-01T00:00:00Z');

function setup(options: Partial<ApiKeyAuthenticatorOptions<TestClaims>> = {}) {
  const store = new CountingStore();
  const authenticator = new ApiKeyAuthenticator<TestClaims>({ store, claimsSchema, clock: createManualClock(T0), ...options });
  return { store, authenticator };
}

function secretOf(key: string): string {
  const parsed = parseApiKey(key);
  if (parsed === undefined) throw new Error('test key is malformed');
  return parsed.secret;
}

describe('ApiKeyAuthenticator does the same hashing and comparison on every path', () => {
  beforeEach(() => {
    digestSpy.mockClear();
    compareSpy.mockClear();
  });

  it('the spies wrap the real functions', () => {
    expect(bytesToHex(digestApiKeySecret('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(digestSpy).toHaveBeenCalledTimes(1);
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
  });

  it('unknown id: the presented secret is hashed and compared against the dummy digest', async () => {
    const { authenticator } = setup();
    const key = randomUnknownKey();
    expect(await authenticator.authenticate({ key, ...noAddress })).toEqual({ ok: false, status: 401 });
    expect(digestSpy).toHaveBeenCalledTimes(1);
    expect(digestSpy).toHaveBeenCalledWith(secretOf(key));
    expect(compareSpy).toHaveBeenCalledTimes(1);
    const [presented, expected] = compareSpy.mock.calls[0] ?? [];
    expect(bytesToHex(presented ?? new Uint8Array())).toBe(hashApiKeySecret(secretOf(key)));
    expect(expected).toBe(DUMMY_SECRET_DIGEST);
  });

  it('every outcome of a well-formed key costs exactly one hash and one 32-byte comparison', async () => {
    const { store, authenticator } = setup();
    const ok = addKey(store);
    const revoked = addKey(store, { revokedAt: new Date(T0) });
    const expired = addKey(store, { expiresAt: new Date(T0) });
    const fenced = addKey(store, { allowedCidrs: ['10.0.0.0/8'] });
    const badClaims = addKey(store, { claims: { sub: 1 } });
    const badNetwork = addKey(store, { allowedCidrs: ['10.0.0.0/33'] });
    const cases: Array<[string, string, number]> = [
      ['success', ok.key, 200],
      ['unknown id', randomUnknownKey(), 401],
      ['wrong secret', withWrongSecret(ok.key), 401],
      ['revoked', revoked.key, 401],
      ['expired', expired.key, 401],
      ['outside CIDR', fenced.key, 401],
      ['claims failing the schema', badClaims.key, 401],
      ['malformed stored network', badNetwork.key, 503],
    ];
    for (const [name, key, status] of cases) {
      digestSpy.mockClear();
      compareSpy.mockClear();
      const result = await authenticator.authenticate({ key, ...noAddress });
      expect(result.ok ? 200 : result.status, name).toBe(status);
      expect(digestSpy, name).toHaveBeenCalledTimes(1);
      expect(compareSpy, name).toHaveBeenCalledTimes(1);
      const [a, b] = compareSpy.mock.calls[0] ?? [];
      expect(a?.length, name).toBe(32);
      expect(b?.length, name).toBe(32);
    }
  });

  it('a store failure still hashes and compares (against the dummy) before answering 503', async () => {
    const { store, authenticator } = setup();
    const ok = addKey(store);
    store.findFailure = 'throw';
    expect(await authenticator.authenticate({ key: ok.key, ...noAddress })).toEqual({ ok: false, status: 503 });
    expect(digestSpy).toHaveBeenCalledTimes(1);
    expect(compareSpy).toHaveBeenCalledTimes(1);
    expect(compareSpy.mock.calls[0]?.[1]).toBe(DUMMY_SECRET_DIGEST);
  });

  it('a cached record is still hashed and compared on every request', async () => {
    const { store, authenticator } = setup({ cacheSeconds: 60 });
    const ok = addKey(store);
    for (let i = 0; i < 4; i++) await authenticator.authenticate({ key: ok.key, ...noAddress });
    await authenticator.authenticate({ key: withWrongSecret(ok.key), ...noAddress });
    expect(store.findCalls).toHaveLength(1);
    expect(digestSpy).toHaveBeenCalledTimes(5);
    expect(compareSpy).toHaveBeenCalledTimes(5);
  });

  it('a malformed key is refused on its (public) format alone: no hash, no compare, no store', async () => {
    const { store, authenticator } = setup();
    await authenticator.authenticate({ key: 'tsk_nope', ...noAddress });
    expect(digestSpy).not.toHaveBeenCalled();
    expect(compareSpy).not.toHaveBeenCalled();
    expect(store.findCalls).toEqual([]);
  });
});
