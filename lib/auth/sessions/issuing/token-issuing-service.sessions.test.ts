import { describe, expect, it, vi } from 'vitest';
import { generateRefreshToken } from './generate-refresh-token.js';
import { hashRefreshToken } from './hash-refresh-token.js';
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

describe.each(STORE_VARIANTS)('sessions, store: %s', (_name, variant) => {
  describe('signOut', () => {
    it('revokes the token; a later refresh fails with 401', async () => {
      const { service, store, clock } = createHarness(variant);
      const pair = await service.signIn(ALICE.identifier, ALICE.password);
      clock.advance(5_000);
      await service.signOut(pair.refreshToken);
      expect(store.records()[0]?.revokedAt).toEqual(new Date(T0_MS + 5_000));
      expectInvalidCredentials(await rejectionOf(service.refresh(pair.refreshToken)));
    });

    it('is idempotent: a second signOut changes nothing (revokedAt keeps its first value)', async () => {
      const { service, store, clock } = createHarness(variant);
      const pair = await service.signIn(ALICE.identifier, ALICE.password);
      await service.signOut(pair.refreshToken);
      const before = store.records();
      clock.advance(1_000);
      await expect(service.signOut(pair.refreshToken)).resolves.toBeUndefined();
      expect(store.records()).toEqual(before);
    });

    it('revokes a rotated token too (any state -> revoked)', async () => {
      const { service, store } = createHarness(variant);
      const pair = await service.signIn(ALICE.identifier, ALICE.password);
      const next = await service.refresh(pair.refreshToken);
      await service.signOut(pair.refreshToken);
      const old = store.records().find((r) => r.tokenHash === hashRefreshToken(pair.refreshToken));
      expect(old?.revokedAt).not.toBeNull();
      // Signing out the old token does not touch its successor.
      await expect(service.refresh(next.refreshToken)).resolves.toHaveProperty('refreshToken');
    });

    it('never throws for unknown or malformed tokens and leaves the store alone', async () => {
      const { service, store } = createHarness(variant);
      await service.signIn(ALICE.identifier, ALICE.password);
      const before = store.records();
      for (const token of [generateRefreshToken(), '', 'not a token', 'x'.repeat(10_000), undefined as unknown as string]) {
        await expect(service.signOut(token)).resolves.toBeUndefined();
      }
      expect(store.records()).toEqual(before);
    });
  });

  describe('revokeAllSessions', () => {
    it("revokes every token of the subject, rotated or not, and nobody else's", async () => {
      const { service, store } = createHarness(variant);
      const a = await service.signIn(ALICE.identifier, ALICE.password);
      const a2 = await service.refresh(a.refreshToken);
      const b = await service.signIn(ALICE.identifier, ALICE.password);
      const bob = await service.signIn(BOB.identifier, BOB.password);
      await service.revokeAllSessions(ALICE.subject);
      for (const record of store.records()) {
        expect(record.revokedAt !== null).toBe(record.subject === ALICE.subject);
      }
      for (const token of [a2.refreshToken, b.refreshToken]) expectInvalidCredentials(await rejectionOf(service.refresh(token)));
      await expect(service.refresh(bob.refreshToken)).resolves.toHaveProperty('refreshToken');
      await expect(service.revokeAllSessions('nobody')).resolves.toBeUndefined();
    });
  });

  describe('issueTokens', () => {
    it('issues a pair in a new family without checking a password', async () => {
      const { service, store, verifier } = createHarness(variant);
      const pair = await service.issueTokens(BOB.subject);
      expect(pair.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(pair.accessToken).toContain(BOB.subject);
      expect(verifier.verifyCalls).toHaveLength(0);
      expect(store.records()).toMatchObject([{ subject: BOB.subject, rotatedAt: null, revokedAt: null }]);
      await expect(service.refresh(pair.refreshToken)).resolves.toHaveProperty('refreshToken');
    });

    it('throws a plain Error for an unknown or disabled subject, and for claims failing the schema', async () => {
      const { service, store, credentials } = createHarness(variant);
      expectServerFault(await rejectionOf(service.issueTokens('u_nobody')));
      credentials.disable(BOB.subject);
      expectServerFault(await rejectionOf(service.issueTokens(BOB.subject)));
      credentials.setClaims(ALICE.subject, { sub: 7 } as unknown as Claims);
      expectServerFault(await rejectionOf(service.issueTokens(ALICE.subject)));
      expect(store.records()).toHaveLength(0);
    });
  });
});

describe('refresh tokens issued by the service', () => {
  it('are 43 base64url characters and unique', async () => {
    const { service } = createHarness();
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const pair = await service.issueTokens(ALICE.subject);
      expect(pair.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      seen.add(pair.refreshToken);
    }
    expect(seen.size).toBe(200);
  });

  it('are not JWTs (no dots)', async () => {
    const { service } = createHarness();
    const pair = await service.issueTokens(ALICE.subject);
    expect(pair.refreshToken).not.toContain('.');
  });

  it('come from crypto.getRandomValues', async () => {
    const { service } = createHarness();
    const spy = vi.spyOn(crypto, 'getRandomValues');
    try {
      await service.issueTokens(ALICE.subject);
      expect(spy).toHaveBeenCalledWith(expect.objectContaining({ length: 32 }));
    } finally {
      spy.mockRestore();
    }
  });
});
