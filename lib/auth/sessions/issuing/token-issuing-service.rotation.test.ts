import { describe, expect, it, vi } from 'vitest';
import { createManualClock } from '../../../common/clock.js';
import { createInMemoryRefreshTokenStore } from './in-memory-store-variants.test-helper.js';
import type { InMemoryRefreshTokenStoreVariant } from './in-memory-store-variants.test-helper.js';
import { hashRefreshToken } from './hash-refresh-token.js';
import { InMemoryRefreshTokenStore } from './in-memory-refresh-token-store.js';
import {
  ALICE,
  BOB,
  STORE_VARIANTS,
  T0_MS,
  createHarness,
  createHarnessWithStore,
  expectInvalidCredentials,
  rejectionOf,
} from './issuing-fixtures.test-helper.js';
import type { RefreshTokenRecord } from './refresh-token-record.js';
import type { RefreshTokenStore } from './refresh-token-store.js';

interface StoreCall {
  readonly method: string;
  readonly args: readonly unknown[];
}

/**
 * Wraps a store so every call is recorded, keeping exactly the wrapped store's set of methods
 * (optional ones stay absent).
 */
function recordingStore(inner: InMemoryRefreshTokenStoreVariant): { store: RefreshTokenStore; calls: StoreCall[] } {
  const calls: StoreCall[] = [];
  const store: Record<string, unknown> = {};
  for (const method of ['create', 'find', 'markRotated', 'revoke', 'revokeAllForSubject', 'rotate', 'revokeFamily'] as const) {
    const fn = inner[method] as ((...args: unknown[]) => unknown) | undefined;
    if (typeof fn !== 'function') continue;
    store[method] = (...args: unknown[]) => {
      calls.push({ method, args: structuredClone(args) });
      return fn.apply(inner, args);
    };
  }
  return { store: store as unknown as RefreshTokenStore, calls };
}

function stateOf(store: InMemoryRefreshTokenStoreVariant, token: string): string {
  const record = store.records().find((r) => r.tokenHash === hashRefreshToken(token));
  if (record === undefined) return 'missing';
  if (record.revokedAt !== null) return 'revoked';
  return record.rotatedAt !== null ? 'rotated' : 'active';
}

describe.each(STORE_VARIANTS)('only hashes reach the store: %s', (_name, variant) => {
  it('no store argument ever contains a raw refresh token; every token hash is 64 hex', async () => {
    const clock = createManualClock(T0_MS);
    const inner = createInMemoryRefreshTokenStore({ ...variant, clock });
    const { store, calls } = recordingStore(inner);
    const { service } = createHarnessWithStore(store, clock);
    const raw: string[] = [];
    const a = await service.signIn(ALICE.identifier, ALICE.password);
    const b = await service.refresh(a.refreshToken);
    const c = await service.issueTokens(BOB.subject);
    raw.push(a.refreshToken, b.refreshToken, c.refreshToken);
    await rejectionOf(service.refresh(a.refreshToken)); // reuse
    await service.signOut(c.refreshToken);
    await service.signOut(c.refreshToken);
    await service.revokeAllSessions(BOB.subject);
    await Promise.allSettled([service.refresh(b.refreshToken), service.refresh(b.refreshToken)]);

    expect(calls.length).toBeGreaterThan(8);
    const serialized = JSON.stringify(calls);
    for (const token of raw) expect(serialized).not.toContain(token);
    for (const call of calls) {
      if (['create', 'find', 'markRotated', 'revoke', 'rotate'].includes(call.method)) expect(call.args[0]).toMatch(/^[0-9a-f]{64}$/);
      if (call.method === 'rotate') expect((call.args[1] as { tokenHash: string }).tokenHash).toMatch(/^[0-9a-f]{64}$/);
    }
  });
});

describe('refresh without store.rotate: successor first, then the compare-and-set', () => {
  it('calls create for the successor before markRotated for the old token', async () => {
    const clock = createManualClock(T0_MS);
    const { store, calls } = recordingStore(createInMemoryRefreshTokenStore({ rotate: false, revokeFamily: true, clock }));
    const { service } = createHarnessWithStore(store, clock);
    const pair = await service.signIn(ALICE.identifier, ALICE.password);
    calls.length = 0;
    const next = await service.refresh(pair.refreshToken);
    expect(calls.map((c) => c.method)).toEqual(['find', 'create', 'markRotated']);
    expect(calls[1]?.args[0]).toBe(hashRefreshToken(next.refreshToken));
    expect(calls[2]?.args[0]).toBe(hashRefreshToken(pair.refreshToken));
  });

  it('a markRotated that throws leaves the old token usable; the unused successor is revoked', async () => {
    const { service, store } = createHarness({ rotate: false, revokeFamily: true });
    const pair = await service.signIn(ALICE.identifier, ALICE.password);
    const outage = new Error('database unavailable');
    vi.spyOn(store, 'markRotated').mockRejectedValueOnce(outage);

    expect(await rejectionOf(service.refresh(pair.refreshToken))).toBe(outage);
    expect(stateOf(store, pair.refreshToken)).toBe('active');
    const orphans = store.records().filter((r) => r.tokenHash !== hashRefreshToken(pair.refreshToken));
    expect(orphans).toHaveLength(1);
    expect(orphans[0]?.revokedAt).not.toBeNull();

    // The store recovers: the client retries with the same old token and succeeds.
    const next = await service.refresh(pair.refreshToken);
    expect(stateOf(store, pair.refreshToken)).toBe('rotated');
    expect(stateOf(store, next.refreshToken)).toBe('active');
  });

  it('a create that throws leaves the old token usable', async () => {
    const { service, store } = createHarness({ rotate: false, revokeFamily: false });
    const pair = await service.signIn(ALICE.identifier, ALICE.password);
    vi.spyOn(store, 'create').mockRejectedValueOnce(new Error('database unavailable'));
    await rejectionOf(service.refresh(pair.refreshToken));
    expect(stateOf(store, pair.refreshToken)).toBe('active');
    await expect(service.refresh(pair.refreshToken)).resolves.toHaveProperty('refreshToken');
  });

  it('losing the compare-and-set (markRotated false) revokes the orphaned successor and fails with 401, nothing else', async () => {
    const { service, store } = createHarness({ rotate: false, revokeFamily: true });
    const pair = await service.signIn(ALICE.identifier, ALICE.password);
    const sibling = await service.signIn(ALICE.identifier, ALICE.password);
    // Simulates a concurrent refresh that won between our find and our compare-and-set.
    vi.spyOn(store, 'markRotated').mockResolvedValueOnce(false);

    expectInvalidCredentials(await rejectionOf(service.refresh(pair.refreshToken)));
    const orphan = store.records().find((r) => r.tokenHash !== hashRefreshToken(pair.refreshToken) && r.tokenHash !== hashRefreshToken(sibling.refreshToken));
    expect(orphan?.revokedAt).toEqual(new Date(T0_MS));
    // No reuse revocation: the token's own family (revokeFamily) and the sibling (revokeAllForSubject) are untouched.
    expect(stateOf(store, pair.refreshToken)).toBe('active');
    expect(stateOf(store, sibling.refreshToken)).toBe('active');
  });
});

describe('compare-and-set results are read strictly', () => {
  it('a markRotated resolving a truthy non-true value (a driver result) counts as lost', async () => {
    const { service, store } = createHarness({ rotate: false, revokeFamily: false });
    const pair = await service.signIn(ALICE.identifier, ALICE.password);
    vi.spyOn(store, 'markRotated').mockResolvedValueOnce({ rowCount: 0 } as unknown as boolean);
    expectInvalidCredentials(await rejectionOf(service.refresh(pair.refreshToken)));
  });

  it('a rotate resolving a truthy non-true value counts as lost', async () => {
    const clock = createManualClock(T0_MS);
    const store = new InMemoryRefreshTokenStore(clock);
    vi.spyOn(store, 'rotate').mockResolvedValueOnce(1 as unknown as boolean);
    const { service } = createHarnessWithStore(store, clock);
    const pair = await service.signIn(ALICE.identifier, ALICE.password);
    expectInvalidCredentials(await rejectionOf(service.refresh(pair.refreshToken)));
  });
});

describe('refresh with store.rotate', () => {
  it('uses rotate alone (no create or markRotated), passing the old hash and the successor', async () => {
    const clock = createManualClock(T0_MS);
    const { store, calls } = recordingStore(createInMemoryRefreshTokenStore({ rotate: true, revokeFamily: false, clock }));
    const { service } = createHarnessWithStore(store, clock);
    const pair = await service.signIn(ALICE.identifier, ALICE.password);
    calls.length = 0;
    const next = await service.refresh(pair.refreshToken);
    expect(calls.map((c) => c.method)).toEqual(['find', 'rotate']);
    expect(calls[1]?.args[0]).toBe(hashRefreshToken(pair.refreshToken));
    expect(calls[1]?.args[1]).toMatchObject({
      tokenHash: hashRefreshToken(next.refreshToken),
      subject: ALICE.subject,
      expiresAt: new Date(T0_MS + 3600_000),
      familyId: expect.any(String),
    });
  });

  it('rotate resolving false fails with 401 and changes nothing else', async () => {
    const clock = createManualClock(T0_MS);
    const inner = new InMemoryRefreshTokenStore(clock);
    // Spied before wrapping, so the recording wrapper calls the spy.
    vi.spyOn(inner, 'rotate').mockResolvedValueOnce(false);
    const { store, calls } = recordingStore(inner);
    const { service } = createHarnessWithStore(store, clock);
    const pair = await service.signIn(ALICE.identifier, ALICE.password);
    calls.length = 0;
    const before = inner.records();
    expectInvalidCredentials(await rejectionOf(service.refresh(pair.refreshToken)));
    expect(calls.map((c) => c.method)).toEqual(['find', 'rotate']);
    expect(inner.records()).toEqual(before);
  });
});

describe('failures before the store changes', () => {
  it('a signer failure during refresh leaves the store unchanged and the old token usable', async () => {
    const { service, store, signer } = createHarness();
    const pair = await service.signIn(ALICE.identifier, ALICE.password);
    vi.spyOn(signer, 'sign').mockRejectedValueOnce(new Error('signer down'));
    const before = store.records();
    await rejectionOf(service.refresh(pair.refreshToken));
    expect(store.records()).toEqual(before);
    await expect(service.refresh(pair.refreshToken)).resolves.toHaveProperty('refreshToken');
  });
});

describe('a store that ignores familyId', () => {
  function familyForgettingStore(inner: InMemoryRefreshTokenStoreVariant): RefreshTokenStore {
    return {
      create: (hash, token) => inner.create(hash, token),
      find: async (hash): Promise<RefreshTokenRecord | undefined> => {
        const record = await inner.find(hash);
        return record == null ? undefined : { ...record, familyId: null };
      },
      markRotated: (hash) => inner.markRotated(hash),
      revoke: (hash) => inner.revoke(hash),
      revokeAllForSubject: (subject) => inner.revokeAllForSubject(subject),
      revokeFamily: (familyId) => inner.revokeFamily?.(familyId),
    };
  }

  it('still rotates, and reuse falls back to revoking every token of the subject', async () => {
    const clock = createManualClock(T0_MS);
    const inner = createInMemoryRefreshTokenStore({ rotate: false, revokeFamily: true, clock });
    const { service } = createHarnessWithStore(familyForgettingStore(inner), clock);
    const stolen = await service.signIn(ALICE.identifier, ALICE.password);
    const other = await service.signIn(ALICE.identifier, ALICE.password);
    const next = await service.refresh(stolen.refreshToken);
    expectInvalidCredentials(await rejectionOf(service.refresh(stolen.refreshToken)));
    expect(stateOf(inner, next.refreshToken)).toBe('revoked');
    expect(stateOf(inner, other.refreshToken)).toBe('revoked');
  });
});
