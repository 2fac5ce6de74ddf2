import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../../common/clock.js';
import { BasicInMemoryRefreshTokenStore } from './basic-in-memory-refresh-token-store.js';
import { createInMemoryRefreshTokenStore } from './in-memory-store-variants.test-helper.js';
import { InMemoryRefreshTokenStore } from './in-memory-refresh-token-store.js';
import { STORE_VARIANTS } from './issuing-fixtures.test-helper.js';

const H1 = 'a'.repeat(64);
const H2 = 'b'.repeat(64);
const H3 = 'c'.repeat(64);
const T0 = 1_000_000;
const token = (subject = 's1', familyId = 'f1') => ({ subject, familyId, expiresAt: new Date(T0 + 60_000) });

describe.each(STORE_VARIANTS)('in-memory store, variant %s', (_name, variant) => {
  const make = () => {
    const clock = createManualClock(T0);
    return { clock, store: createInMemoryRefreshTokenStore({ ...variant, clock }) };
  };

  it('has exactly the asked-for optional operations (absent, not undefined)', () => {
    const { store } = make();
    expect('rotate' in store).toBe(variant.rotate);
    expect('revokeFamily' in store).toBe(variant.revokeFamily);
  });

  it('create then find returns a copy of the record', async () => {
    const { store } = make();
    const input = token();
    await store.create(H1, input);
    input.expiresAt.setTime(0);
    const found = await store.find(H1);
    expect(found).toMatchObject({ subject: 's1', familyId: 'f1', expiresAt: new Date(T0 + 60_000), rotatedAt: null, revokedAt: null });
    expect(await store.find(H2)).toBeUndefined();
  });

  it('refuses a duplicate hash and invalid records, with messages free of the hash', async () => {
    const { store } = make();
    await store.create(H1, token());
    await expect(store.create(H1, token())).rejects.toThrow(/already stored/);
    await expect(store.create(H1, token())).rejects.not.toThrow(H1);
    await expect(store.create(H2, { subject: 's', familyId: 'f', expiresAt: new Date(Number.NaN) })).rejects.toThrow(TypeError);
    await expect(store.create('', token())).rejects.toThrow(TypeError);
  });

  it('markRotated is a compare-and-set: true once, then false; false for unknown and revoked', async () => {
    const { store, clock } = make();
    await store.create(H1, token());
    await store.create(H2, token());
    clock.advance(5);
    expect(await store.markRotated(H1)).toBe(true);
    clock.advance(5);
    expect(await store.markRotated(H1)).toBe(false);
    expect((await store.find(H1))?.rotatedAt).toEqual(new Date(T0 + 5));
    await store.revoke(H2);
    expect(await store.markRotated(H2)).toBe(false);
    expect((await store.find(H2))?.rotatedAt).toBeNull();
    expect(await store.markRotated(H3)).toBe(false);
  });

  it('concurrent markRotated calls: exactly one wins', async () => {
    const { store } = make();
    await store.create(H1, token());
    const results = await Promise.all(Array.from({ length: 10 }, () => store.markRotated(H1)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('revoke stamps revokedAt once; a no-op for unknown and already-revoked hashes', async () => {
    const { store, clock } = make();
    await store.create(H1, token());
    await store.revoke(H3);
    clock.advance(1);
    await store.revoke(H1);
    clock.advance(1);
    await store.revoke(H1);
    expect((await store.find(H1))?.revokedAt).toEqual(new Date(T0 + 1));
    expect(store.records()).toHaveLength(1);
  });

  it('revokeAllForSubject revokes only that subject', async () => {
    const { store } = make();
    await store.create(H1, token('s1', 'f1'));
    await store.create(H2, token('s1', 'f2'));
    await store.create(H3, token('s2', 'f3'));
    await store.revokeAllForSubject('s1');
    expect(store.records().map((r) => r.revokedAt !== null)).toEqual([true, true, false]);
  });

  it('records() is a frozen snapshot', async () => {
    const { store } = make();
    await store.create(H1, token());
    const snapshot = store.records();
    expect(Object.isFrozen(snapshot)).toBe(true);
    expect(Object.isFrozen(snapshot[0])).toBe(true);
    snapshot[0]?.expiresAt.setTime(0);
    await store.revoke(H1);
    expect(snapshot[0]?.revokedAt).toBeNull();
    expect(store.records()[0]?.expiresAt).toEqual(new Date(T0 + 60_000));
  });
});

describe('rotate (atomic)', () => {
  const make = () => {
    const clock = createManualClock(T0);
    return { clock, store: new InMemoryRefreshTokenStore(clock) };
  };

  it('marks the old token rotated and stores the successor in one step', async () => {
    const { store } = make();
    await store.create(H1, token());
    expect(await store.rotate(H1, { tokenHash: H2, ...token() })).toBe(true);
    expect((await store.find(H1))?.rotatedAt).toEqual(new Date(T0));
    expect(await store.find(H2)).toMatchObject({ subject: 's1', familyId: 'f1', rotatedAt: null, revokedAt: null });
  });

  it('answers false and changes nothing for rotated, revoked or unknown old tokens', async () => {
    const { store } = make();
    await store.create(H1, token());
    await store.rotate(H1, { tokenHash: H2, ...token() });
    const before = store.records();
    expect(await store.rotate(H1, { tokenHash: H3, ...token() })).toBe(false);
    await store.revoke(H2);
    const afterRevoke = store.records();
    expect(await store.rotate(H2, { tokenHash: H3, ...token() })).toBe(false);
    expect(await store.rotate('d'.repeat(64), { tokenHash: H3, ...token() })).toBe(false);
    expect(store.records()).toEqual(afterRevoke);
    expect(before).toHaveLength(2);
  });

  it('changes nothing when the successor is invalid', async () => {
    const { store } = make();
    await store.create(H1, token());
    await expect(store.rotate(H1, { tokenHash: H1, ...token() })).rejects.toThrow();
    await expect(store.rotate(H1, { tokenHash: H2, subject: 's1', familyId: 'f1', expiresAt: new Date(Number.NaN) })).rejects.toThrow();
    expect((await store.find(H1))?.rotatedAt).toBeNull();
    expect(await store.find(H2)).toBeUndefined();
  });

  it('concurrent rotations of one token: exactly one wins, one successor stored', async () => {
    const { store } = make();
    await store.create(H1, token());
    const successors = ['1', '2', '3', '4'].map((d) => d.repeat(64));
    const results = await Promise.all(successors.map((h) => store.rotate(H1, { tokenHash: h, ...token() })));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(store.records()).toHaveLength(2);
  });
});

describe('revokeFamily', () => {
  it('revokes every token of one family and nothing else', async () => {
    const store = new InMemoryRefreshTokenStore(createManualClock(T0));
    await store.create(H1, token('s1', 'f1'));
    await store.create(H2, token('s1', 'f1'));
    await store.create(H3, token('s1', 'f2'));
    await store.revokeFamily('f1');
    expect(store.records().map((r) => r.revokedAt !== null)).toEqual([true, true, false]);
  });
});

describe('store classes', () => {
  it('BasicInMemoryRefreshTokenStore has no optional operations at all', () => {
    const store = new BasicInMemoryRefreshTokenStore();
    expect('rotate' in store).toBe(false);
    expect('revokeFamily' in store).toBe(false);
  });

  it('both classes can be built by the DI container (no required constructor parameters)', () => {
    expect(InMemoryRefreshTokenStore.length).toBe(0);
    expect(BasicInMemoryRefreshTokenStore.length).toBe(0);
  });

  it('the factory returns the classes for the all and nothing variants', () => {
    expect(createInMemoryRefreshTokenStore({ rotate: true, revokeFamily: true })).toBeInstanceOf(InMemoryRefreshTokenStore);
    expect(createInMemoryRefreshTokenStore({ rotate: false, revokeFamily: false })).toBeInstanceOf(BasicInMemoryRefreshTokenStore);
  });

  it('default to the system clock', async () => {
    const store = new InMemoryRefreshTokenStore();
    await store.create(H1, token());
    const before = Date.now();
    await store.markRotated(H1);
    const rotatedAt = (await store.find(H1))?.rotatedAt?.getTime() ?? 0;
    expect(rotatedAt).toBeGreaterThanOrEqual(before);
    expect(rotatedAt).toBeLessThanOrEqual(Date.now());
  });
});
