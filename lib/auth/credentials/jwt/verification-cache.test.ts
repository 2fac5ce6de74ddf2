import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../../common/clock.js';
import { createAccessTokenVerifier } from './access-token-verifier.js';
import { GOOD_HEADER, SECRET_256, T0, T0_MS, craft, goodPayload } from './craft-token.test-helper.js';
import { VerificationCache } from './verification-cache.js';
import type { VerificationCacheEntry } from './verification-cache.js';

function setup(maxEntries = 100) {
  const clock = createManualClock(T0_MS);
  const verifier = createAccessTokenVerifier({ secret: SECRET_256, algorithm: 'HS256', clock, cache: { maxEntries } });
  return { clock, verifier };
}

describe('verification cache (through the verifier)', () => {
  it('serves a repeated token from the cache, returning the same frozen result', () => {
    const { verifier } = setup();
    const token = craft(GOOD_HEADER, goodPayload());
    const first = verifier.verifySync(token);
    const second = verifier.verifySync(token);
    expect(first.ok).toBe(true);
    expect(second).toBe(first);
    expect(verifier.stats()).toMatchObject({ enabled: true, size: 1, hits: 1, misses: 1 });
  });

  it('still refuses a cached token at exactly exp, and drops the entry', () => {
    const { clock, verifier } = setup();
    const token = craft(GOOD_HEADER, goodPayload({ exp: T0 + 60 }));
    expect(verifier.verifySync(token).ok).toBe(true);
    clock.set((T0 + 59) * 1000);
    expect(verifier.verifySync(token).ok).toBe(true);
    expect(verifier.stats().hits).toBe(1);
    clock.set((T0 + 60) * 1000);
    expect(verifier.verifySync(token)).toEqual({ ok: false, reason: 'expired' });
    expect(verifier.stats()).toMatchObject({ hits: 2, size: 0 });
    // Going back in time re-verifies from scratch (a miss) rather than resurrecting the entry.
    clock.set((T0 + 59) * 1000);
    expect(verifier.verifySync(token).ok).toBe(true);
    expect(verifier.stats().misses).toBe(2);
  });

  it('re-checks nbf on a hit when the clock moves back', () => {
    const { clock, verifier } = setup();
    const token = craft(GOOD_HEADER, goodPayload({ nbf: T0 }));
    expect(verifier.verifySync(token).ok).toBe(true);
    clock.set(T0_MS - 1);
    expect(verifier.verifySync(token)).toEqual({ ok: false, reason: 'not_yet_valid' });
    expect(verifier.stats()).toMatchObject({ hits: 1, misses: 1 }); // refused on the hit path
  });

  it('does not treat a token differing in one character as a hit', () => {
    const { verifier } = setup();
    const token = craft(GOOD_HEADER, goodPayload());
    expect(verifier.verifySync(token).ok).toBe(true);
    const positions = [0, token.indexOf('.') + 3, token.lastIndexOf('.') + 5, token.length - 2];
    for (const at of positions) {
      const variant = token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1);
      expect(verifier.verifySync(variant).ok).toBe(false);
    }
    expect(verifier.verifySync(`${token}A`).ok).toBe(false);
    expect(verifier.verifySync(token.slice(0, -1)).ok).toBe(false);
    expect(verifier.stats()).toMatchObject({ hits: 0, misses: 7, size: 1 });
  });

  it('is bounded and evicts the least recently used token', () => {
    const { verifier } = setup(3);
    const tokens = [1, 2, 3, 4, 5].map((n) => craft(GOOD_HEADER, goodPayload({ sub: `user-${n}` })));
    const [t1 = '', t2 = '', t3 = '', t4 = '', t5 = ''] = tokens;
    for (const token of [t1, t2, t3]) verifier.verifySync(token);
    expect(verifier.stats().size).toBe(3);
    verifier.verifySync(t1); // t1 becomes most recently used; t2 is now the oldest
    verifier.verifySync(t4); // evicts t2
    verifier.verifySync(t5); // evicts t3
    expect(verifier.stats()).toMatchObject({ size: 3, hits: 1, misses: 5 });
    verifier.verifySync(t1);
    expect(verifier.stats().hits).toBe(2);
    verifier.verifySync(t2); // was evicted: a miss, re-verified
    expect(verifier.stats()).toMatchObject({ hits: 2, misses: 6, size: 3 });
  });

  it('never grows past maxEntries under many distinct tokens', () => {
    const { verifier } = setup(50);
    for (let n = 0; n < 500; n++) verifier.verifySync(craft(GOOD_HEADER, goodPayload({ n })));
    expect(verifier.stats().size).toBe(50);
  });

  it('can be disabled', () => {
    const clock = createManualClock(T0_MS);
    const verifier = createAccessTokenVerifier({ secret: SECRET_256, algorithm: 'HS256', clock, cache: false });
    const token = craft(GOOD_HEADER, goodPayload());
    expect(verifier.verifySync(token).ok).toBe(true);
    expect(verifier.verifySync(token).ok).toBe(true);
    expect(verifier.stats()).toEqual({ enabled: false, size: 0, maxEntries: 0, hits: 0, misses: 0 });
  });
});

describe('VerificationCache', () => {
  const entry = (validUntilMs: number): VerificationCacheEntry => ({
    result: { ok: true, payload: {} },
    validFromMs: Number.NEGATIVE_INFINITY,
    validUntilMs,
  });

  it('drops expired entries at the old end when inserting', () => {
    const cache = new VerificationCache(10);
    cache.set('a', entry(1000), 0);
    cache.set('b', entry(1000), 0);
    cache.set('c', entry(5000), 0);
    expect(cache.size).toBe(3);
    cache.set('d', entry(5000), 1000); // a and b are expired at 1000
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')).toBeDefined();
  });

  it('keeps LRU order when the newest entry is hit again and after the newest is deleted', () => {
    const cache = new VerificationCache(2);
    cache.set('a', entry(9000), 0);
    cache.set('b', entry(9000), 0);
    cache.get('b');
    cache.get('b');
    cache.get('a'); // a becomes newest; b is now the least recently used
    cache.set('c', entry(9000), 0);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    cache.delete('a');
    cache.get('c');
    cache.set('d', entry(9000), 0);
    cache.set('e', entry(9000), 0); // c was hit after a's deletion, yet d is newer: c goes first
    expect(cache.get('c')).toBeUndefined();
    expect(cache.get('d')).toBeDefined();
    expect(cache.get('e')).toBeDefined();
  });

  it('replaces an existing key without growing', () => {
    const cache = new VerificationCache(2);
    cache.set('a', entry(1000), 0);
    cache.set('a', entry(2000), 0);
    expect(cache.size).toBe(1);
    expect(cache.get('a')?.validUntilMs).toBe(2000);
  });

  it('refuses a non-positive size', () => {
    expect(() => new VerificationCache(0)).toThrow(RangeError);
  });
});
