import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createManualClock } from '../../../common/clock.js';
import { ApiKeyAuthenticator } from './api-key-authenticator.js';
import type { ApiKeyAuthenticatorOptions } from './api-key-authenticator.js';
import type { ApiKeyStore } from './api-key-store.js';
import { CountingStore, addKey, claimsSchema, noAddress, randomUnknownKey, validClaims, withWrongSecret } from './api-key.test-helper.js';
import type { TestClaims } from './api-key.test-helper.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const UNAUTHORIZED = { ok: false, status: 401 };
const UNAVAILABLE = { ok: false, status: 503 };

function setup(options: Partial<ApiKeyAuthenticatorOptions<TestClaims>> = {}) {
  const store = new CountingStore();
  const clock = createManualClock(T0);
  const authenticator = new ApiKeyAuthenticator<TestClaims>({ store, claimsSchema, clock, ...options });
  return { store, clock, authenticator };
}

/** Lets fire-and-forget promise handlers run. */
async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  await new Promise((resolve) => setTimeout(resolve, 0));
}

describe('ApiKeyAuthenticator: success', () => {
  it('returns the parsed claims, id and scopes', async () => {
    const { store, authenticator } = setup();
    const generated = addKey(store, { scopes: ['posts:read', 'posts:write'] });
    const result = await authenticator.authenticate({ key: generated.key, ...noAddress });
    expect(result).toEqual({ ok: true, claims: validClaims, apiKey: { id: generated.id, scopes: ['posts:read', 'posts:write'] }, expiresAtMs: Number.POSITIVE_INFINITY });
  });

  it('gives a key without scopes an empty scope list', async () => {
    const { store, authenticator } = setup();
    const generated = addKey(store, { scopes: undefined });
    const result = await authenticator.authenticate({ key: generated.key, ...noAddress });
    expect(result.ok && result.apiKey.scopes).toEqual([]);
  });

  it('returns the schema output (transforms applied)', async () => {
    const store = new CountingStore();
    const schema = z.object({ sub: z.string() }).transform((c) => ({ subject: c.sub.toUpperCase() }));
    const authenticator = new ApiKeyAuthenticator({ store, claimsSchema: schema, clock: createManualClock(T0) });
    const generated = addKey(store, { claims: { sub: 'svc' } });
    const result = await authenticator.authenticate({ key: generated.key, ...noAddress });
    expect(result.ok && result.claims).toEqual({ subject: 'SVC' });
  });
});

describe('ApiKeyAuthenticator: every client-side failure is the same 401', () => {
  it('malformed key, without calling the store', async () => {
    const { store, authenticator } = setup();
    const generated = addKey(store);
    for (const key of ['', 'nonsense', ` ${generated.key}`, generated.key.toUpperCase(), generated.key.slice(0, -1)]) {
      expect(await authenticator.authenticate({ key, ...noAddress })).toEqual(UNAUTHORIZED);
    }
    expect(store.findCalls).toEqual([]);
  });

  it('unknown id', async () => {
    const { store, authenticator } = setup();
    addKey(store);
    expect(await authenticator.authenticate({ key: randomUnknownKey(), ...noAddress })).toEqual(UNAUTHORIZED);
    expect(store.findCalls).toHaveLength(1);
  });

  it('wrong secret', async () => {
    const { store, authenticator } = setup();
    const generated = addKey(store);
    expect(await authenticator.authenticate({ key: withWrongSecret(generated.key), ...noAddress })).toEqual(UNAUTHORIZED);
  });

  it('revoked, from the exact moment of revocation', async () => {
    const { store, clock, authenticator } = setup();
    const generated = addKey(store);
    store.inner.revoke(generated.id, new Date(T0 + 1000));
    clock.set(T0 + 999);
    expect((await authenticator.authenticate({ key: generated.key, ...noAddress })).ok).toBe(true);
    clock.set(T0 + 1000);
    expect(await authenticator.authenticate({ key: generated.key, ...noAddress })).toEqual(UNAUTHORIZED);
  });

  it('expired at exactly expiresAt, valid one millisecond before', async () => {
    const { store, clock, authenticator } = setup();
    const generated = addKey(store, { expiresAt: new Date(T0 + 5000) });
    clock.set(T0 + 4999);
    expect((await authenticator.authenticate({ key: generated.key, ...noAddress })).ok).toBe(true);
    clock.set(T0 + 5000);
    expect(await authenticator.authenticate({ key: generated.key, ...noAddress })).toEqual(UNAUTHORIZED);
  });

  it('expiry is checked against the clock even on a cached record', async () => {
    const { store, clock, authenticator } = setup({ cacheSeconds: 60 });
    const generated = addKey(store, { expiresAt: new Date(T0 + 5000) });
    expect((await authenticator.authenticate({ key: generated.key, ...noAddress })).ok).toBe(true);
    clock.set(T0 + 5000);
    expect(await authenticator.authenticate({ key: generated.key, ...noAddress })).toEqual(UNAUTHORIZED);
    expect(store.findCalls).toHaveLength(1);
  });

  it('outside allowedCidrs', async () => {
    const { store, authenticator } = setup();
    const generated = addKey(store, { allowedCidrs: ['10.0.0.0/8'] });
    expect(await authenticator.authenticate({ key: generated.key, socketAddress: '192.0.2.1', forwardedFor: null })).toEqual(UNAUTHORIZED);
    expect((await authenticator.authenticate({ key: generated.key, socketAddress: '10.9.8.7', forwardedFor: null })).ok).toBe(true);
  });

  it('unknown client address when the key has allowedCidrs', async () => {
    const { store, authenticator } = setup();
    const generated = addKey(store, { allowedCidrs: ['10.0.0.0/8'] });
    expect(await authenticator.authenticate({ key: generated.key, ...noAddress })).toEqual(UNAUTHORIZED);
    expect(await authenticator.authenticate({ key: generated.key, socketAddress: 'not-an-ip', forwardedFor: null })).toEqual(UNAUTHORIZED);
    // A header cannot stand in for the missing socket address.
    expect(await authenticator.authenticate({ key: generated.key, socketAddress: undefined, forwardedFor: '10.0.0.1' })).toEqual(UNAUTHORIZED);
  });

  it('an unknown address is fine for a key without allowedCidrs (missing, null or empty)', async () => {
    const { store, authenticator } = setup();
    for (const allowedCidrs of [undefined, null, []]) {
      const generated = addKey(store, { allowedCidrs });
      expect((await authenticator.authenticate({ key: generated.key, ...noAddress })).ok).toBe(true);
    }
  });

  it('stored claims failing the claims schema', async () => {
    const { store, authenticator } = setup();
    const generated = addKey(store, { claims: { sub: 42 } });
    expect(await authenticator.authenticate({ key: generated.key, ...noAddress })).toEqual(UNAUTHORIZED);
  });

  it('a claims schema that throws is a refusal, not a crash', async () => {
    const store = new CountingStore();
    const schema = z.object({ sub: z.string() }).refine(() => {
      throw new Error('schema bug');
    });
    const authenticator = new ApiKeyAuthenticator({ store, claimsSchema: schema, clock: createManualClock(T0) });
    const generated = addKey(store);
    expect(await authenticator.authenticate({ key: generated.key, ...noAddress })).toEqual(UNAUTHORIZED);
  });

  it('all failures share one frozen result object', async () => {
    const { store, clock, authenticator } = setup();
    const ok = addKey(store);
    const revoked = addKey(store, { revokedAt: new Date(T0) });
    const expired = addKey(store, { expiresAt: new Date(T0) });
    const fenced = addKey(store, { allowedCidrs: ['10.0.0.0/8'] });
    const badClaims = addKey(store, { claims: null });
    clock.set(T0);
    const results = await Promise.all(
      ['bad', randomUnknownKey(), withWrongSecret(ok.key), revoked.key, expired.key, fenced.key, badClaims.key].map((key) =>
        authenticator.authenticate({ key, ...noAddress }),
      ),
    );
    for (const result of results) {
      expect(result).toBe(results[0]);
      expect(Object.isFrozen(result)).toBe(true);
    }
    expect(results[0]).toEqual(UNAUTHORIZED);
  });
});

describe('ApiKeyAuthenticator: 503 when the state cannot be told', () => {
  it('store throwing synchronously or rejecting', async () => {
    const { store, authenticator } = setup();
    const generated = addKey(store);
    for (const failure of ['throw', 'reject'] as const) {
      store.findFailure = failure;
      expect(await authenticator.authenticate({ key: generated.key, ...noAddress })).toEqual(UNAVAILABLE);
      expect(await authenticator.authenticate({ key: withWrongSecret(generated.key), ...noAddress })).toEqual(UNAVAILABLE);
    }
  });

  it('a malformed stored network, never let through, and not cached', async () => {
    const { store, authenticator } = setup({ cacheSeconds: 60 });
    for (const allowedCidrs of [['10.0.0.0/33'], ['10.1.2.3/24'], ['10.0.0.0/8', 'garbage'], 'not-a-list' as unknown as string[]]) {
      const generated = addKey(store, { allowedCidrs });
      expect(await authenticator.authenticate({ key: generated.key, socketAddress: '10.1.2.3', forwardedFor: null })).toEqual(UNAVAILABLE);
      expect(await authenticator.authenticate({ key: generated.key, socketAddress: '10.1.2.3', forwardedFor: null })).toEqual(UNAVAILABLE);
      expect(store.findCalls.filter((id) => id === generated.id)).toHaveLength(2);
    }
  });

  it('other unreadable records: wrong id, bad secretHash, invalid or non-Date moments, non-string scopes', async () => {
    const malformed: Array<Record<string, unknown>> = [
      { secretHash: 'not-hex' },
      { secretHash: '' },
      { expiresAt: new Date(Number.NaN) },
      { revokedAt: new Date(Number.NaN) },
      { revokedAt: '2020-01-01T00:00:00Z' },
      { expiresAt: 0 },
      { scopes: 'posts:read' },
      { scopes: [1] },
    ];
    for (const overrides of malformed) {
      const { store, authenticator } = setup();
      const generated = addKey(store, overrides);
      expect(await authenticator.authenticate({ key: generated.key, ...noAddress })).toEqual(UNAVAILABLE);
    }
    const liar: ApiKeyStore = { find: () => ({ id: 'ffffffffffffffffffffffff', secretHash: '0'.repeat(64), claims: validClaims }) };
    const authenticator = new ApiKeyAuthenticator({ store: liar, claimsSchema });
    expect(await authenticator.authenticate({ key: randomUnknownKey(), ...noAddress })).toEqual(UNAVAILABLE);
  });

  it('accepts an uppercase stored secretHash (hex is case-insensitive)', async () => {
    const { store, authenticator } = setup();
    const generated = addKey(new CountingStore());
    store.inner.add({ id: generated.id, secretHash: generated.secretHash.toUpperCase(), claims: validClaims });
    expect((await authenticator.authenticate({ key: generated.key, ...noAddress })).ok).toBe(true);
  });
});

describe('ApiKeyAuthenticator: caching', () => {
  it('with cacheSeconds 60 the store is called once for repeated requests', async () => {
    const { store, authenticator } = setup({ cacheSeconds: 60 });
    const generated = addKey(store);
    for (let i = 0; i < 10; i++) {
      expect((await authenticator.authenticate({ key: generated.key, ...noAddress })).ok).toBe(true);
    }
    expect(store.findCalls).toEqual([generated.id]);
  });

  it('a wrong secret still fails on a cached record', async () => {
    const { store, authenticator } = setup({ cacheSeconds: 60 });
    const generated = addKey(store);
    expect((await authenticator.authenticate({ key: generated.key, ...noAddress })).ok).toBe(true);
    expect(await authenticator.authenticate({ key: withWrongSecret(generated.key), ...noAddress })).toEqual(UNAUTHORIZED);
    expect((await authenticator.authenticate({ key: generated.key, ...noAddress })).ok).toBe(true);
    expect(store.findCalls).toHaveLength(1);
  });

  it('a wrong secret on a known id also fills the cache (the store is not hammered)', async () => {
    const { store, authenticator } = setup({ cacheSeconds: 60 });
    const generated = addKey(store);
    for (let i = 0; i < 5; i++) await authenticator.authenticate({ key: withWrongSecret(generated.key), ...noAddress });
    expect(store.findCalls).toHaveLength(1);
  });

  it('revocation becomes visible once the cache entry expires, not before', async () => {
    const { store, clock, authenticator } = setup({ cacheSeconds: 60 });
    const generated = addKey(store);
    expect((await authenticator.authenticate({ key: generated.key, ...noAddress })).ok).toBe(true);
    store.inner.revoke(generated.id, new Date(T0 + 1000));
    clock.set(T0 + 59_999);
    expect((await authenticator.authenticate({ key: generated.key, ...noAddress })).ok).toBe(true); // the documented window
    clock.set(T0 + 60_000);
    expect(await authenticator.authenticate({ key: generated.key, ...noAddress })).toEqual(UNAUTHORIZED);
    expect(store.findCalls).toHaveLength(2);
  });

  it('without cacheSeconds every request reads the store, so revocation is immediate', async () => {
    const { store, authenticator } = setup();
    const generated = addKey(store);
    expect((await authenticator.authenticate({ key: generated.key, ...noAddress })).ok).toBe(true);
    store.inner.revoke(generated.id, new Date(T0));
    expect(await authenticator.authenticate({ key: generated.key, ...noAddress })).toEqual(UNAUTHORIZED);
    expect(store.findCalls).toHaveLength(2);
  });

  it('not-found is never cached: a key created after a miss works at once', async () => {
    const { store, authenticator } = setup({ cacheSeconds: 60 });
    const generated = addKey(new CountingStore()); // generated, but not yet in `store`
    expect(await authenticator.authenticate({ key: generated.key, ...noAddress })).toEqual(UNAUTHORIZED);
    expect(await authenticator.authenticate({ key: generated.key, ...noAddress })).toEqual(UNAUTHORIZED);
    expect(store.findCalls).toHaveLength(2);
    store.inner.add({ id: generated.id, secretHash: generated.secretHash, claims: validClaims });
    expect((await authenticator.authenticate({ key: generated.key, ...noAddress })).ok).toBe(true);
    expect(store.findCalls).toHaveLength(3);
  });

  it('a store failure is not cached', async () => {
    const { store, authenticator } = setup({ cacheSeconds: 60 });
    const generated = addKey(store);
    store.findFailure = 'reject';
    expect(await authenticator.authenticate({ key: generated.key, ...noAddress })).toEqual(UNAVAILABLE);
    store.findFailure = 'none';
    expect((await authenticator.authenticate({ key: generated.key, ...noAddress })).ok).toBe(true);
  });

  it('the cache is bounded and evicts the oldest entry', async () => {
    const { store, authenticator } = setup({ cacheSeconds: 60, maxCacheEntries: 2 });
    const [a, b, c] = [addKey(store), addKey(store), addKey(store)];
    for (const generated of [a, b, c]) await authenticator.authenticate({ key: generated.key, ...noAddress });
    store.findCalls = [];
    await authenticator.authenticate({ key: c.key, ...noAddress });
    await authenticator.authenticate({ key: b.key, ...noAddress });
    expect(store.findCalls).toEqual([]);
    await authenticator.authenticate({ key: a.key, ...noAddress });
    expect(store.findCalls).toEqual([a.id]);
  });

  it('rejects nonsense options at construction', () => {
    const store = new CountingStore();
    expect(() => new ApiKeyAuthenticator({ store, claimsSchema, cacheSeconds: -1 })).toThrow(RangeError);
    expect(() => new ApiKeyAuthenticator({ store, claimsSchema, cacheSeconds: Number.NaN })).toThrow(RangeError);
    expect(() => new ApiKeyAuthenticator({ store, claimsSchema, lastUsedIntervalSeconds: -5 })).toThrow(RangeError);
    expect(() => new ApiKeyAuthenticator({ store, claimsSchema, clientIp: { trustedProxyHops: -1 } })).toThrow(RangeError);
  });
});

describe('ApiKeyAuthenticator: last-used tracking', () => {
  it('touches at most once per key per interval, only after success', async () => {
    const { store, clock, authenticator } = setup({ lastUsedIntervalSeconds: 300 });
    const a = addKey(store);
    const b = addKey(store);
    await authenticator.authenticate({ key: withWrongSecret(a.key), ...noAddress });
    expect(store.touchCalls).toEqual([]);
    for (let i = 0; i < 5; i++) await authenticator.authenticate({ key: a.key, ...noAddress });
    await authenticator.authenticate({ key: b.key, ...noAddress });
    expect(store.touchCalls).toEqual([
      { id: a.id, at: new Date(T0) },
      { id: b.id, at: new Date(T0) },
    ]);
    clock.set(T0 + 299_999);
    await authenticator.authenticate({ key: a.key, ...noAddress });
    expect(store.touchCalls).toHaveLength(2);
    clock.set(T0 + 300_000);
    await authenticator.authenticate({ key: a.key, ...noAddress });
    expect(store.touchCalls).toHaveLength(3);
    expect(store.touchCalls[2]).toEqual({ id: a.id, at: new Date(T0 + 300_000) });
    expect(store.inner.lastUsedAt(a.id)).toEqual(new Date(T0 + 300_000));
  });

  it('defaults to 300 seconds', async () => {
    const { store, clock, authenticator } = setup();
    const a = addKey(store);
    await authenticator.authenticate({ key: a.key, ...noAddress });
    clock.set(T0 + 299_000);
    await authenticator.authenticate({ key: a.key, ...noAddress });
    expect(store.touchCalls).toHaveLength(1);
    clock.set(T0 + 300_000);
    await authenticator.authenticate({ key: a.key, ...noAddress });
    expect(store.touchCalls).toHaveLength(2);
  });

  it('a touch that throws or rejects is ignored, not retried per request, never unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', onUnhandled);
    try {
      for (const mode of ['throw', 'reject'] as const) {
        const inner = new CountingStore();
        let touches = 0;
        const store: ApiKeyStore = {
          find: (id) => inner.find(id),
          touch: () => {
            touches++;
            if (mode === 'throw') throw new Error('touch failed');
            return Promise.reject(new Error('touch failed'));
          },
        };
        const authenticator = new ApiKeyAuthenticator({ store, claimsSchema, clock: createManualClock(T0) });
        const generated = addKey(inner);
        for (let i = 0; i < 3; i++) {
          expect((await authenticator.authenticate({ key: generated.key, ...noAddress })).ok).toBe(true);
        }
        expect(touches).toBe(1);
      }
      await flush();
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('is not awaited: a slow touch does not delay the response', async () => {
    const inner = new CountingStore();
    const store: ApiKeyStore = { find: (id) => inner.find(id), touch: () => new Promise<void>(() => {}) };
    const authenticator = new ApiKeyAuthenticator({ store, claimsSchema, clock: createManualClock(T0) });
    const generated = addKey(inner);
    expect((await authenticator.authenticate({ key: generated.key, ...noAddress })).ok).toBe(true);
  });

  it('works with a store that has no touch', async () => {
    const inner = new CountingStore();
    const authenticator = new ApiKeyAuthenticator({ store: { find: (id) => inner.find(id) }, claimsSchema });
    const generated = addKey(inner);
    expect((await authenticator.authenticate({ key: generated.key, ...noAddress })).ok).toBe(true);
  });
});

describe('ApiKeyAuthenticator: client address', () => {
  it('an IPv4-mapped IPv6 socket address matches an IPv4 network', async () => {
    const { store, authenticator } = setup();
    const generated = addKey(store, { allowedCidrs: ['192.0.2.0/24'] });
    expect((await authenticator.authenticate({ key: generated.key, socketAddress: '::ffff:192.0.2.7', forwardedFor: null })).ok).toBe(true);
    expect(await authenticator.authenticate({ key: generated.key, socketAddress: '::ffff:198.51.100.7', forwardedFor: null })).toEqual(UNAUTHORIZED);
  });

  it('matches IPv6 networks', async () => {
    const { store, authenticator } = setup();
    const generated = addKey(store, { allowedCidrs: ['2001:db8::/32'] });
    expect((await authenticator.authenticate({ key: generated.key, socketAddress: '2001:db8::5', forwardedFor: null })).ok).toBe(true);
    expect(await authenticator.authenticate({ key: generated.key, socketAddress: '2001:db9::5', forwardedFor: null })).toEqual(UNAUTHORIZED);
  });

  it('without trustedProxyHops X-Forwarded-For is ignored: everyone looks like the proxy', async () => {
    const { store, authenticator } = setup();
    const generated = addKey(store, { allowedCidrs: ['203.0.113.0/24'] });
    const viaProxy = { key: generated.key, socketAddress: '10.0.0.5', forwardedFor: '203.0.113.9' };
    expect(await authenticator.authenticate(viaProxy)).toEqual(UNAUTHORIZED);
  });

  it('with trustedProxyHops 1 the address comes from X-Forwarded-For, read from the right', async () => {
    const { store, authenticator } = setup({ clientIp: { trustedProxyHops: 1, isTrustedProxy: ['10.0.0.0/8'] } });
    const generated = addKey(store, { allowedCidrs: ['203.0.113.0/24'] });
    const base = { key: generated.key, socketAddress: '10.0.0.5' };
    expect((await authenticator.authenticate({ ...base, forwardedFor: '203.0.113.9' })).ok).toBe(true);
    // A spoofed entry on the left is never read.
    expect((await authenticator.authenticate({ ...base, forwardedFor: '6.6.6.6, 203.0.113.9' })).ok).toBe(true);
    expect(await authenticator.authenticate({ ...base, forwardedFor: '203.0.113.9, 6.6.6.6' })).toEqual(UNAUTHORIZED);
    // No header behind a proxy: address unknown, refused.
    expect(await authenticator.authenticate({ ...base, forwardedFor: null })).toEqual(UNAUTHORIZED);
    // A client bypassing the proxy cannot supply its own header.
    expect(
      await authenticator.authenticate({ key: generated.key, socketAddress: '198.51.100.4', forwardedFor: '203.0.113.9' }),
    ).toEqual(UNAUTHORIZED);
  });
});
