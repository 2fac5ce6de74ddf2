import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../../common/clock.js';
import { tracedStore } from '../../shared/auth-telemetry.js';
import { completeRefreshTokenStore } from './complete-refresh-token-store.js';
import { InMemoryRefreshTokenStore } from './in-memory-refresh-token-store.js';
import { InMemoryRefreshTokenTable } from './in-memory-refresh-token-table.js';
import { ALICE, BOB, T0_MS, createHarnessWithStore, expectInvalidCredentials, rejectionOf } from './issuing-fixtures.test-helper.js';
import type { NewRefreshToken } from './refresh-token-record.js';
import type { RefreshTokenStore } from './refresh-token-store.js';

const OLD = 'a'.repeat(64);
const NEXT = 'b'.repeat(64);
const OTHER = 'c'.repeat(64);
const token = (subject = 's1', familyId = 'f1'): NewRefreshToken => ({ subject, familyId, expiresAt: new Date(T0_MS + 60_000) });

/**
 * A store written to SPEC's contract with the required operations only (no rotate,
 * revokeFamily, listSessions or revokedFamiliesSince), recording the order of its calls.
 */
function specMinimalStore(options: { markRotated?: (hash: string) => unknown } = {}) {
  const table = new InMemoryRefreshTokenTable(createManualClock(T0_MS));
  const calls: string[] = [];
  const store: RefreshTokenStore = {
    create: (hash, record) => {
      calls.push(`create ${hash.slice(0, 1)}`);
      table.create(hash, record);
    },
    find: (hash) => table.find(hash) ?? null,
    markRotated: (hash) => {
      calls.push(`markRotated ${hash.slice(0, 1)}`);
      return (options.markRotated ?? ((h: string) => table.markRotated(h)))(hash) as boolean;
    },
    revoke: (hash) => {
      calls.push(`revoke ${hash.slice(0, 1)}`);
      table.revoke(hash);
    },
    revokeAllForSubject: (subject) => {
      calls.push(`revokeAllForSubject ${subject}`);
      table.revokeAllForSubject(subject);
    },
  };
  return { store, table, calls };
}

function stateOf(table: InMemoryRefreshTokenTable, hash: string): string {
  const record = table.find(hash);
  if (record === undefined) return 'missing';
  if (record.revokedAt != null) return 'revoked';
  return record.rotatedAt != null ? 'rotated' : 'active';
}

describe('completeRefreshTokenStore: a store with only the required operations', () => {
  it('rotates successor first: create of the successor, then the markRotated compare-and-set', async () => {
    const { store, table, calls } = specMinimalStore();
    table.create(OLD, token());
    const won = await completeRefreshTokenStore(store).rotate(OLD, { tokenHash: NEXT, ...token() });
    expect(won, 'the compare-and-set was won').toBe(true);
    expect(calls, 'successor stored before the old token is marked').toEqual(['create b', 'markRotated a']);
    expect([stateOf(table, OLD), stateOf(table, NEXT)]).toEqual(['rotated', 'active']);
  });

  it('a lost compare-and-set revokes the successor it stored and answers false', async () => {
    const { store, table, calls } = specMinimalStore();
    table.create(OLD, token());
    table.markRotated(OLD);
    const won = await completeRefreshTokenStore(store).rotate(OLD, { tokenHash: NEXT, ...token() });
    expect(won).toBe(false);
    expect(calls).toEqual(['create b', 'markRotated a', 'revoke b']);
    expect(stateOf(table, NEXT), 'the orphan nobody holds is not usable').toBe('revoked');
  });

  it('a markRotated resolving a truthy non-true value (a driver result) counts as lost', async () => {
    const { store, table } = specMinimalStore({ markRotated: () => 1 });
    table.create(OLD, token());
    expect(await completeRefreshTokenStore(store).rotate(OLD, { tokenHash: NEXT, ...token() })).toBe(false);
    expect(stateOf(table, NEXT)).toBe('revoked');
  });

  it('a markRotated that throws leaves the old token active, revokes the successor and rethrows', async () => {
    const { store, table } = specMinimalStore({
      markRotated: () => {
        throw new Error('db down');
      },
    });
    table.create(OLD, token());
    await expect(completeRefreshTokenStore(store).rotate(OLD, { tokenHash: NEXT, ...token() })).rejects.toThrow('db down');
    expect([stateOf(table, OLD), stateOf(table, NEXT)]).toEqual(['active', 'revoked']);
  });

  it('reuse revokes every token of the subject and says so', async () => {
    const { store, table } = specMinimalStore();
    table.create(OLD, token('s1', 'f1'));
    table.create(OTHER, token('s1', 'f2'));
    table.create(NEXT, token('s2', 'f3'));
    const ended = await completeRefreshTokenStore(store).revokeReused(table.find(OLD)!);
    expect(ended).toEqual({ scope: 'subject', subject: 's1' });
    expect([stateOf(table, OLD), stateOf(table, OTHER), stateOf(table, NEXT)], "the subject's other sign-in too, nobody else's").toEqual(['revoked', 'revoked', 'active']);
  });

  it('listing or ending sessions rejects with an Error naming both operations', async () => {
    const complete = completeRefreshTokenStore(specMinimalStore().store);
    await expect(complete.listSessions('s1')).rejects.toThrow(/listSessions and revokeFamily/);
    await expect(complete.revokeFamily('f1')).rejects.toThrow(/listSessions and revokeFamily/);
  });

  it('reports no ended sessions (it keeps no such history)', async () => {
    expect(await completeRefreshTokenStore(specMinimalStore().store).revokedFamiliesSince(new Date(0))).toEqual([]);
  });

  it('answers find null as undefined', async () => {
    expect(await completeRefreshTokenStore(specMinimalStore().store).find(OLD)).toBeUndefined();
  });
});

describe('completeRefreshTokenStore: a store with every operation', () => {
  it("uses the store's own atomic rotate, never create or markRotated", async () => {
    const inner = new InMemoryRefreshTokenStore(createManualClock(T0_MS));
    const calls: string[] = [];
    const spy = new Proxy(inner, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls.push(String(property));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    await inner.create(OLD, token());
    expect(await completeRefreshTokenStore(spy).rotate(OLD, { tokenHash: NEXT, ...token() })).toBe(true);
    expect(calls).toEqual(['rotate']);
  });

  it("a rotate resolving a truthy non-true value counts as lost", async () => {
    const { store } = specMinimalStore();
    const complete = completeRefreshTokenStore({ ...store, rotate: () => 'UPDATE 1' as unknown as boolean });
    expect(await complete.rotate(OLD, { tokenHash: NEXT, ...token() })).toBe(false);
  });

  it('reuse revokes the family only, and says so', async () => {
    const inner = new InMemoryRefreshTokenStore(createManualClock(T0_MS));
    await inner.create(OLD, token('s1', 'f1'));
    await inner.create(OTHER, token('s1', 'f2'));
    const ended = await completeRefreshTokenStore(inner).revokeReused((await inner.find(OLD))!);
    expect(ended).toEqual({ scope: 'family', familyId: 'f1' });
    expect((await inner.find(OTHER))?.revokedAt ?? null, "the subject's other sign-in is kept").toBeNull();
  });

  it('reuse of a record without a family revokes by subject, even with revokeFamily', async () => {
    const inner = new InMemoryRefreshTokenStore(createManualClock(T0_MS));
    await inner.create(OTHER, token('s1', 'f2'));
    const ended = await completeRefreshTokenStore(inner).revokeReused({ ...token('s1'), familyId: null });
    expect(ended).toEqual({ scope: 'subject', subject: 's1' });
    expect((await inner.find(OTHER))?.revokedAt).toBeInstanceOf(Date);
  });

  it('sees through the tracing Proxy: its absent operations stay absent, its present ones are used', async () => {
    const { store, table, calls } = specMinimalStore();
    table.create(OLD, token());
    await completeRefreshTokenStore(tracedStore(store, 'RefreshTokenStore')).rotate(OLD, { tokenHash: NEXT, ...token() });
    expect(calls).toEqual(['create b', 'markRotated a']);
  });

  it('completing a completed store answers it as is', () => {
    const complete = completeRefreshTokenStore(new InMemoryRefreshTokenStore());
    expect(completeRefreshTokenStore(complete)).toBe(complete);
  });
});

describe('the issuing service over a store with only the required operations', () => {
  it('signs in, refreshes, and on reuse refuses every token of the subject (SPEC state table)', async () => {
    const clock = createManualClock(T0_MS);
    const { store, calls } = specMinimalStore();
    const { service } = createHarnessWithStore(store, clock);
    const stolen = await service.signIn(ALICE.identifier, ALICE.password);
    const otherDevice = await service.signIn(ALICE.identifier, ALICE.password);
    const bobs = await service.signIn(BOB.identifier, BOB.password);
    const next = await service.refresh(stolen.refreshToken);
    expect(calls.slice(-2), 'refresh stored the successor, then marked the old token').toEqual([expect.stringMatching(/^create /), expect.stringMatching(/^markRotated /)]);
    expectInvalidCredentials(await rejectionOf(service.refresh(stolen.refreshToken)));
    expect(calls.at(-1), 'reuse revoked by subject').toBe(`revokeAllForSubject ${ALICE.subject}`);
    expectInvalidCredentials(await rejectionOf(service.refresh(next.refreshToken)));
    expectInvalidCredentials(await rejectionOf(service.refresh(otherDevice.refreshToken)));
    await expect(service.refresh(bobs.refreshToken), 'another person is untouched').resolves.toHaveProperty('refreshToken');
  });
});
