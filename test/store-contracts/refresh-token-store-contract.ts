import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../lib/index.js';
import type { Clock, ManualClock } from '../../lib/index.js';
import type { NewRefreshToken, RefreshTokenStore } from '../../lib/auth/sessions/issuing/index.js';
import { randomHash, T0, uniqueId } from './contract-fixtures.js';

/** Builds a fresh store whose timestamps come from `clock`. */
export type RefreshTokenStoreFactory = (clock: Clock) => Promise<RefreshTokenStore>;

/**
 * The RefreshTokenStore contract (SPEC "Store contracts") for any implementation; the optional
 * `rotate` and `revokeFamily` are checked when the store has them.
 *
 * @example
 * describeRefreshTokenStoreContract('postgres on PGlite', async (clock) => new PostgresRefreshTokenStore(db, { clock }));
 */
export function describeRefreshTokenStoreContract(name: string, make: RefreshTokenStoreFactory): void {
  const setup = async (): Promise<{ clock: ManualClock; store: RefreshTokenStore }> => {
    const clock = createManualClock(T0);
    return { clock, store: await make(clock) };
  };
  const token = (subject = uniqueId('s'), familyId = uniqueId('f')): NewRefreshToken => ({ subject, familyId, expiresAt: new Date(T0 + 60_000) });

  describe(`RefreshTokenStore contract: ${name}`, () => {
    it('create then find returns the record, unchanged by later mutation of the input', async () => {
      const { store } = await setup();
      const h = randomHash();
      const input = token('s1', 'f1');
      await store.create(h, input);
      input.expiresAt.setTime(0);
      const found = await store.find(h);
      expect(found).toMatchObject({ subject: 's1', familyId: 'f1', expiresAt: new Date(T0 + 60_000) });
      expect(found?.rotatedAt ?? null).toBeNull();
      expect(found?.revokedAt ?? null).toBeNull();
      expect(await store.find(randomHash())).toBeFalsy();
    });

    it('refuses a duplicate hash and invalid records, with messages free of the hash', async () => {
      const { store } = await setup();
      const h = randomHash();
      await store.create(h, token());
      const duplicate = await Promise.resolve()
        .then(() => store.create(h, token()))
        .then(() => undefined, (error: unknown) => error);
      expect(duplicate).toBeInstanceOf(Error);
      expect((duplicate as Error).message).toMatch(/already stored/);
      expect((duplicate as Error).message).not.toContain(h);
      await expect(async () => store.create(randomHash(), { subject: 's', familyId: 'f', expiresAt: new Date(Number.NaN) })).rejects.toThrow(TypeError);
      await expect(async () => store.create('', token())).rejects.toThrow(TypeError);
    });

    it('markRotated is a compare-and-set stamped with the injected clock: true once, then false; false for unknown and revoked', async () => {
      const { store, clock } = await setup();
      const [h1, h2] = [randomHash(), randomHash()];
      await store.create(h1, token());
      await store.create(h2, token());
      clock.advance(5);
      expect(await store.markRotated(h1)).toBe(true);
      clock.advance(5);
      expect(await store.markRotated(h1)).toBe(false);
      expect((await store.find(h1))?.rotatedAt).toEqual(new Date(T0 + 5));
      await store.revoke(h2);
      expect(await store.markRotated(h2)).toBe(false);
      expect((await store.find(h2))?.rotatedAt ?? null).toBeNull();
      expect(await store.markRotated(randomHash())).toBe(false);
    });

    it('concurrent markRotated calls: exactly one wins', async () => {
      const { store } = await setup();
      const h = randomHash();
      await store.create(h, token());
      const results = await Promise.all(Array.from({ length: 20 }, () => store.markRotated(h)));
      expect(results.filter((r) => r === true)).toHaveLength(1);
    });

    it('revoke stamps revokedAt once (the first moment stays); a no-op for unknown hashes', async () => {
      const { store, clock } = await setup();
      const h = randomHash();
      await store.create(h, token());
      await store.revoke(randomHash());
      clock.advance(1);
      await store.revoke(h);
      clock.advance(1);
      await store.revoke(h);
      expect((await store.find(h))?.revokedAt).toEqual(new Date(T0 + 1));
    });

    it('revokeAllForSubject revokes every token of that subject and nothing else', async () => {
      const { store } = await setup();
      const [s1, s2] = [uniqueId('s'), uniqueId('s')];
      const hashes = [randomHash(), randomHash(), randomHash()] as const;
      await store.create(hashes[0], token(s1));
      await store.create(hashes[1], token(s1));
      await store.create(hashes[2], token(s2));
      await store.revokeAllForSubject(s1);
      const revoked = await Promise.all(hashes.map(async (h) => (await store.find(h))?.revokedAt != null));
      expect(revoked).toEqual([true, true, false]);
    });

    it('revokeEverySession (when present) revokes every token of every subject, each family then reported as revoked', async (ctx) => {
      const { store, clock } = await setup();
      if (store.revokeEverySession === undefined) return ctx.skip();
      const [f1, f2] = [uniqueId('f'), uniqueId('f')];
      const hashes = [randomHash(), randomHash()] as const;
      await store.create(hashes[0], token(uniqueId('s'), f1));
      await store.create(hashes[1], token(uniqueId('s'), f2));
      clock.advance(5);
      await store.revokeEverySession();
      const revokedAt = await Promise.all(hashes.map(async (h) => (await store.find(h))?.revokedAt));
      expect(revokedAt, "two subjects' tokens, revoked now").toEqual([new Date(T0 + 5), new Date(T0 + 5)]);
      if (store.revokedFamiliesSince === undefined) return;
      const families = (await store.revokedFamiliesSince(new Date(T0 + 5))).map((family) => family.familyId);
      expect(families, 'a starting instance would not learn of the ended sessions').toEqual(expect.arrayContaining([f1, f2]));
    });

    it('rotate (when present) marks the old token and stores the successor in one step', async (ctx) => {
      const { store, clock } = await setup();
      if (store.rotate === undefined) return ctx.skip();
      const [h1, h2] = [randomHash(), randomHash()];
      const t = token('s1', 'f1');
      await store.create(h1, t);
      clock.advance(7);
      expect(await store.rotate(h1, { tokenHash: h2, ...t })).toBe(true);
      expect((await store.find(h1))?.rotatedAt).toEqual(new Date(T0 + 7));
      const successor = await store.find(h2);
      expect(successor).toMatchObject({ subject: 's1', familyId: 'f1' });
      expect(successor?.rotatedAt ?? null).toBeNull();
    });

    it('rotate (when present) answers false and changes nothing for a rotated, revoked or unknown old token', async (ctx) => {
      const { store } = await setup();
      if (store.rotate === undefined) return ctx.skip();
      const [h1, h2, h3, h4] = [randomHash(), randomHash(), randomHash(), randomHash()];
      await store.create(h1, token());
      expect(await store.rotate(h1, { tokenHash: h2, ...token() })).toBe(true);
      expect(await store.rotate(h1, { tokenHash: h3, ...token() })).toBe(false);
      await store.revoke(h2);
      expect(await store.rotate(h2, { tokenHash: h3, ...token() })).toBe(false);
      expect(await store.rotate(randomHash(), { tokenHash: h4, ...token() })).toBe(false);
      expect(await store.find(h3)).toBeFalsy();
      expect(await store.find(h4)).toBeFalsy();
      expect((await store.find(h2))?.rotatedAt ?? null).toBeNull();
    });

    it('rotate (when present) changes nothing when the successor cannot be stored', async (ctx) => {
      const { store } = await setup();
      if (store.rotate === undefined) return ctx.skip();
      const [h1, h2] = [randomHash(), randomHash()];
      await store.create(h1, token());
      await expect(async () => store.rotate?.(h1, { tokenHash: h1, ...token() })).rejects.toThrow();
      await expect(async () => store.rotate?.(h1, { tokenHash: h2, subject: 's', familyId: 'f', expiresAt: new Date(Number.NaN) })).rejects.toThrow();
      expect((await store.find(h1))?.rotatedAt ?? null).toBeNull();
      expect(await store.find(h2)).toBeFalsy();
    });

    it('rotate (when present), concurrently on one token: exactly one wins and one successor is stored', async (ctx) => {
      const { store } = await setup();
      if (store.rotate === undefined) return ctx.skip();
      const h = randomHash();
      const t = token();
      await store.create(h, t);
      const successors = Array.from({ length: 20 }, () => randomHash());
      const results = await Promise.all(successors.map((s) => store.rotate?.(h, { tokenHash: s, ...t })));
      expect(results.filter((r) => r === true)).toHaveLength(1);
      const stored = await Promise.all(successors.map(async (s) => (await store.find(s)) != null));
      expect(stored.filter(Boolean)).toHaveLength(1);
      expect(stored.indexOf(true)).toBe(results.indexOf(true));
    });

    it('revokeFamily (when present) revokes every token of one family and nothing else', async (ctx) => {
      const { store } = await setup();
      if (store.revokeFamily === undefined) return ctx.skip();
      const subject = uniqueId('s');
      const [f1, f2] = [uniqueId('f'), uniqueId('f')];
      const hashes = [randomHash(), randomHash(), randomHash()] as const;
      await store.create(hashes[0], token(subject, f1));
      await store.create(hashes[1], token(subject, f1));
      await store.create(hashes[2], token(subject, f2));
      await store.revokeFamily(f1);
      const revoked = await Promise.all(hashes.map(async (h) => (await store.find(h))?.revokedAt != null));
      expect(revoked).toEqual([true, true, false]);
    });

    it('listSessions (when present) keeps each token\'s session metadata: find returns it, rotate\'s successor carries its own', async (ctx) => {
      const { store } = await setup();
      if (store.listSessions === undefined) return ctx.skip();
      const [h1, h2] = [randomHash(), randomHash()];
      const subject = uniqueId('s');
      const started = new Date(T0 - 5_000);
      const first: NewRefreshToken = { ...token(subject, 'f1'), issuedAt: started, sessionStartedAt: started, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0', clientAddress: '2001:db8::7' };
      await store.create(h1, first);
      expect(await store.find(h1), 'find answers the metadata create stored').toMatchObject({
        issuedAt: started,
        sessionStartedAt: started,
        userAgent: first.userAgent,
        clientAddress: '2001:db8::7',
      });
      const next = { ...first, tokenHash: h2, issuedAt: new Date(T0) };
      if (store.rotate === undefined) {
        await store.create(h2, next);
        await store.markRotated(h1);
      } else {
        expect(await store.rotate(h1, next)).toBe(true);
      }
      expect(await store.listSessions(subject), 'one session: the current token, issued at the refresh, started at the sign-in').toEqual([
        { familyId: 'f1', expiresAt: first.expiresAt, issuedAt: new Date(T0), sessionStartedAt: started, userAgent: first.userAgent, clientAddress: '2001:db8::7' },
      ]);
    });

    it('listSessions (when present) answers null for metadata a token was created without', async (ctx) => {
      const { store } = await setup();
      if (store.listSessions === undefined) return ctx.skip();
      const subject = uniqueId('s');
      await store.create(randomHash(), token(subject, 'bare'));
      expect(await store.listSessions(subject)).toEqual([
        { familyId: 'bare', expiresAt: new Date(T0 + 60_000), issuedAt: null, sessionStartedAt: null, userAgent: null, clientAddress: null },
      ]);
    });

    it('listSessions (when present) lists only the subject\'s families that still have an unrotated, unrevoked token', async (ctx) => {
      const { store } = await setup();
      if (store.listSessions === undefined || store.revokeFamily === undefined) return ctx.skip();
      const [alice, bob] = [uniqueId('s'), uniqueId('s')];
      const [kept, ended, signedOut, bobs] = [uniqueId('f'), uniqueId('f'), uniqueId('f'), uniqueId('f')];
      await store.create(randomHash(), token(alice, kept));
      await store.create(randomHash(), token(alice, ended));
      const signedOutHash = randomHash();
      await store.create(signedOutHash, token(alice, signedOut));
      await store.create(randomHash(), token(bob, bobs));
      await store.revokeFamily(ended);
      await store.revoke(signedOutHash);
      const families = (await store.listSessions(alice)).map((session) => session.familyId);
      expect(families, 'only the live session of alice; never a revoked family, a signed-out token or bob\'s').toEqual([kept]);
      expect(await store.listSessions(uniqueId('nobody')), 'an unknown subject has no sessions').toEqual([]);
    });

    it('revokedFamiliesSince (when present) reports each family with a token revoked since then, once, at its latest revocation', async (ctx) => {
      const { store, clock } = await setup();
      if (store.revokedFamiliesSince === undefined) return ctx.skip();
      const [s1, s2, s3] = [uniqueId('s'), uniqueId('s'), uniqueId('s')];
      const [f1, f2, f3] = [uniqueId('f'), uniqueId('f'), uniqueId('f')];
      const [a, b, c, d] = [randomHash(), randomHash(), randomHash(), randomHash()];
      await store.create(a, token(s1, f1));
      await store.create(b, token(s1, f1));
      await store.create(c, token(s2, f2));
      await store.create(d, token(s3, f3));
      await store.revoke(a); // f1 at T0
      clock.advance(1_000);
      await store.revokeAllForSubject(s2); // f2 at T0 + 1 s
      clock.advance(1_000);
      await store.revoke(b); // f1 again, at T0 + 2 s
      // Other tests may share the table: only this test's families count.
      const ours = async (since: number) =>
        (await store.revokedFamiliesSince?.(new Date(since)) ?? [])
          .filter((family) => [f1, f2, f3].includes(family.familyId))
          .map((family) => [family.familyId, family.revokedAt.getTime()])
          .sort(([x], [y]) => String(x).localeCompare(String(y)));
      const expected = (...pairs: [string, number][]) => pairs.sort(([x], [y]) => x.localeCompare(y));
      expect(await ours(T0), 'since T0: f1 at its latest revocation, f2; never the live f3').toEqual(expected([f1, T0 + 2_000], [f2, T0 + 1_000]));
      expect(await ours(T0 + 1_500), 'since T0 + 1.5 s: only f1 (revoked again at T0 + 2 s)').toEqual(expected([f1, T0 + 2_000]));
      expect(await ours(T0 + 2_001), 'since after the last revocation: none').toEqual([]);
    });
  });
}
