import { describe, expect, it } from 'vitest';
import { hashRefreshToken } from './hash-refresh-token.js';
import type { InMemoryRefreshTokenStoreVariant } from './in-memory-store-variants.test-helper.js';
import { generateRefreshToken } from './generate-refresh-token.js';
import {
  ALICE,
  BOB,
  STORE_VARIANTS,
  T0_MS,
  createHarness,
  expectInvalidCredentials,
  expectServerFault,
  rejectionOf,
} from './issuing-fixtures.test-helper.js';
import type { Claims } from './issuing-fixtures.test-helper.js';

/** The stored state of a raw token, read from the store snapshot. */
function stateOf(store: InMemoryRefreshTokenStoreVariant, token: string): 'active' | 'rotated' | 'revoked' | 'missing' {
  const record = store.records().find((r) => r.tokenHash === hashRefreshToken(token));
  if (record === undefined) return 'missing';
  if (record.revokedAt !== null) return 'revoked';
  return record.rotatedAt !== null ? 'rotated' : 'active';
}

function familyOf(store: InMemoryRefreshTokenStoreVariant, token: string): string | null | undefined {
  return store.records().find((r) => r.tokenHash === hashRefreshToken(token))?.familyId;
}

describe.each(STORE_VARIANTS)('refresh, store: %s', (_name, variant) => {
  describe('active token', () => {
    it('rotates: old rotated, successor active in the same family, new pair with fresh claims', async () => {
      const { service, store, clock, credentials } = createHarness(variant);
      const first = await service.signIn(ALICE.identifier, ALICE.password);
      clock.advance(60_000);
      credentials.setClaims(ALICE.subject, { sub: ALICE.subject, roles: ['owner', 'auditor'] });

      const next = await service.refresh(first.refreshToken);

      expect(next.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(next.refreshToken).not.toBe(first.refreshToken);
      expect(next.refreshTokenExpiresAt).toEqual(new Date(T0_MS + 60_000 + 3600_000));
      expect(next.accessToken).toContain('"auditor"');
      expect(stateOf(store, first.refreshToken)).toBe('rotated');
      expect(stateOf(store, next.refreshToken)).toBe('active');
      expect(familyOf(store, next.refreshToken)).toBe(familyOf(store, first.refreshToken));
      const old = store.records().find((r) => r.tokenHash === hashRefreshToken(first.refreshToken));
      expect(old?.rotatedAt).toEqual(new Date(T0_MS + 60_000));
      expect(store.records()).toHaveLength(2);
    });

    it('can be refreshed up to 1 ms before expiry, not at expiresAt', async () => {
      const { service, clock } = createHarness(variant);
      const a = await service.signIn(ALICE.identifier, ALICE.password);
      const b = await service.signIn(ALICE.identifier, ALICE.password);
      clock.advance(3600_000 - 1);
      await expect(service.refresh(a.refreshToken)).resolves.toHaveProperty('refreshToken');
      clock.advance(1);
      expectInvalidCredentials(await rejectionOf(service.refresh(b.refreshToken)));
    });

    it('refuses with 401 and changes nothing when the account is disabled', async () => {
      const { service, store, credentials } = createHarness(variant);
      const pair = await service.signIn(ALICE.identifier, ALICE.password);
      credentials.disable(ALICE.subject);
      const before = store.records();
      expectInvalidCredentials(await rejectionOf(service.refresh(pair.refreshToken)));
      expect(store.records()).toEqual(before);
      credentials.enable(ALICE.subject);
      await expect(service.refresh(pair.refreshToken)).resolves.toHaveProperty('refreshToken');
    });

    it('throws a plain Error and changes nothing when the claims fail the schema', async () => {
      const { service, store, credentials } = createHarness(variant);
      const pair = await service.signIn(ALICE.identifier, ALICE.password);
      credentials.setClaims(ALICE.subject, { sub: 'leaky-sub', roles: [42] } as unknown as Claims);
      const before = store.records();
      const error = await rejectionOf(service.refresh(pair.refreshToken));
      expectServerFault(error);
      expect((error as Error).message).not.toContain('leaky');
      expect((error as Error).message).not.toContain(pair.refreshToken);
      expect(store.records()).toEqual(before);
    });

    it('of N concurrent refreshes of one token, exactly one succeeds', async () => {
      const { service, store } = createHarness({ ...variant, refreshReuseGraceSeconds: 30 });
      const pair = await service.signIn(ALICE.identifier, ALICE.password);
      const results = await Promise.allSettled([1, 2, 3, 4].map(() => service.refresh(pair.refreshToken)));
      const won = results.filter((r) => r.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expectInvalidCredentials(r.reason);
      // Exactly the winner's successor is active: no orphan survives.
      const active = store.records().filter((r) => r.rotatedAt === null && r.revokedAt === null);
      expect(active.map((r) => r.tokenHash)).toEqual([hashRefreshToken((won[0] as PromiseFulfilledResult<{ refreshToken: string }>).value.refreshToken)]);
    });
  });

  describe('rotated token replayed outside the grace window (reuse)', () => {
    it('fails with 401 and revokes the family, or every token of the subject without revokeFamily', async () => {
      const { service, store } = createHarness(variant);
      const stolen = await service.signIn(ALICE.identifier, ALICE.password);
      const otherSession = await service.signIn(ALICE.identifier, ALICE.password);
      const bobs = await service.signIn(BOB.identifier, BOB.password);
      const current = await service.refresh(stolen.refreshToken);

      expectInvalidCredentials(await rejectionOf(service.refresh(stolen.refreshToken)));

      expect(stateOf(store, stolen.refreshToken)).toBe('revoked');
      expect(stateOf(store, current.refreshToken)).toBe('revoked');
      expect(stateOf(store, otherSession.refreshToken)).toBe(variant.revokeFamily ? 'active' : 'revoked');
      expect(stateOf(store, bobs.refreshToken)).toBe('active');
      expectInvalidCredentials(await rejectionOf(service.refresh(current.refreshToken)));
    });

    it('with a grace window, a replay exactly at the window end is reuse', async () => {
      const { service, store, clock } = createHarness({ ...variant, refreshReuseGraceSeconds: 30 });
      const first = await service.signIn(ALICE.identifier, ALICE.password);
      const next = await service.refresh(first.refreshToken);
      clock.advance(30_000);
      expectInvalidCredentials(await rejectionOf(service.refresh(first.refreshToken)));
      expect(stateOf(store, next.refreshToken)).toBe('revoked');
    });
  });

  describe('rotated token replayed within the grace window', () => {
    it('fails with 401 and revokes nothing', async () => {
      const { service, store, clock } = createHarness({ ...variant, refreshReuseGraceSeconds: 30 });
      const first = await service.signIn(ALICE.identifier, ALICE.password);
      const next = await service.refresh(first.refreshToken);
      clock.advance(29_999);
      const before = store.records();
      expectInvalidCredentials(await rejectionOf(service.refresh(first.refreshToken)));
      expect(store.records()).toEqual(before);
      expect(stateOf(store, first.refreshToken)).toBe('rotated');
      await expect(service.refresh(next.refreshToken)).resolves.toHaveProperty('refreshToken');
    });
  });

  describe('revoked, expired or unknown token', () => {
    it('revoked: 401, unchanged', async () => {
      const { service, store } = createHarness(variant);
      const pair = await service.signIn(ALICE.identifier, ALICE.password);
      const other = await service.signIn(ALICE.identifier, ALICE.password);
      await service.signOut(pair.refreshToken);
      const before = store.records();
      expectInvalidCredentials(await rejectionOf(service.refresh(pair.refreshToken)));
      expect(store.records()).toEqual(before);
      expect(stateOf(store, other.refreshToken)).toBe('active');
    });

    it('expired: 401, unchanged, even when it was rotated (expiry wins over reuse)', async () => {
      const { service, store, clock } = createHarness(variant);
      const first = await service.signIn(ALICE.identifier, ALICE.password);
      const idle = await service.signIn(ALICE.identifier, ALICE.password);
      clock.advance(1000);
      const next = await service.refresh(first.refreshToken);
      clock.advance(3600_000 - 1000);
      const before = store.records();
      expectInvalidCredentials(await rejectionOf(service.refresh(first.refreshToken)));
      expectInvalidCredentials(await rejectionOf(service.refresh(idle.refreshToken)));
      expect(store.records()).toEqual(before);
      expect(stateOf(store, next.refreshToken)).toBe('active');
    });

    it('unknown or malformed: 401, unchanged', async () => {
      const { service, store } = createHarness(variant);
      await service.signIn(ALICE.identifier, ALICE.password);
      const before = store.records();
      for (const token of [generateRefreshToken(), '', 'x', 'eyJhbGciOiJIUzI1NiJ9.e30.sig', 'a'.repeat(44), 'a'.repeat(42) + '=', 'a'.repeat(100_000)]) {
        expectInvalidCredentials(await rejectionOf(service.refresh(token)));
      }
      expectInvalidCredentials(await rejectionOf(service.refresh(42 as unknown as string)));
      expect(store.records()).toEqual(before);
    });
  });
});
