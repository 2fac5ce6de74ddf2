// The absolute session lifetime (ASVS 5.0 7.3.2, 10.4.8): a session ends `sessionMaxAge` after its
// sign-in however often it is refreshed. The same on PostgreSQL: test/postgres/session-max-age.test.ts.
import { describe, expect, it } from 'vitest';
import { ALICE, T0_MS, createHarness, expectInvalidCredentials, rejectionOf } from './issuing-fixtures.test-helper.js';
import { hashRefreshToken } from './hash-refresh-token.js';
import { generateRefreshToken } from './generate-refresh-token.js';
import { newSessionId } from '../state/session-id.js';
import { resolveTokenLifetimes } from './token-issuing-options.js';
import type { TokenPair } from './token-pair.js';

const DAY_MS = 86_400_000;
const DAY = 86_400;

/** Refreshes every `everyDays` days while it works; answers how many refreshes succeeded and the day refresh was first refused. */
async function refreshUntilRefused(service: ReturnType<typeof createHarness>['service'], clock: ReturnType<typeof createHarness>['clock'], first: TokenPair, everyDays: number, maxSteps: number) {
  let pair = first;
  for (let step = 1; step <= maxSteps; step++) {
    clock.advance(everyDays * DAY_MS);
    try {
      pair = await service.refresh(pair.refreshToken);
    } catch (error) {
      expectInvalidCredentials(error);
      return { refreshes: step - 1, refusedOnDay: step * everyDays };
    }
  }
  return { refreshes: maxSteps, refusedOnDay: undefined };
}

describe('absolute session lifetime (sessionMaxAge)', () => {
  it('is on by default: 30 days', () => {
    expect(resolveTokenLifetimes({}).sessionMaxAge, 'default sessionMaxAge').toBe(30 * DAY);
  });

  it('refuses nonsense: zero, negative, infinite, NaN', () => {
    for (const sessionMaxAge of [0, -1, Number.POSITIVE_INFINITY, Number.NaN]) {
      expect(() => resolveTokenLifetimes({ sessionMaxAge }), String(sessionMaxAge)).toThrow(RangeError);
    }
  });

  it('a refresh token refreshed every 29 days stops working at the absolute bound (default 30 days)', async () => {
    // Idle lifetime 30 days: each refresh comes within it, so only the absolute bound can stop it.
    const { service, clock } = createHarness({ refreshTokenTtl: 30 * DAY });
    const first = await service.signIn(ALICE.identifier, ALICE.password);
    const outcome = await refreshUntilRefused(service, clock, first, 29, 13);
    expect(outcome, 'one refresh on day 29, refused on day 58 (past day 30)').toEqual({ refreshes: 1, refusedOnDay: 58 });
  });

  it('a configured lifetime bounds the session the same way: 90 days, refreshed every 29', async () => {
    const { service, clock } = createHarness({ refreshTokenTtl: 30 * DAY, sessionMaxAge: 90 * DAY });
    const first = await service.signIn(ALICE.identifier, ALICE.password);
    expect(await refreshUntilRefused(service, clock, first, 29, 13)).toEqual({ refreshes: 3, refusedOnDay: 116 });
  });

  it('no refresh token of a session expires after the session ends', async () => {
    const { service, clock } = createHarness({ refreshTokenTtl: 30 * DAY, sessionMaxAge: 45 * DAY });
    const first = await service.signIn(ALICE.identifier, ALICE.password);
    expect(first.refreshTokenExpiresAt, 'at sign-in: the idle lifetime').toEqual(new Date(T0_MS + 30 * DAY_MS));
    clock.advance(29 * DAY_MS);
    const second = await service.refresh(first.refreshToken);
    expect(second.refreshTokenExpiresAt, 'after a refresh on day 29: cut to day 45, not day 59').toEqual(new Date(T0_MS + 45 * DAY_MS));
  });

  it('refuses, at the bound, a token stored before the bound existed (its expiry past the session end)', async () => {
    const { service, clock, store } = createHarness({ refreshTokenTtl: 365 * DAY, sessionMaxAge: 10 * DAY });
    // As an older version stored it: a year of idle lifetime, nothing cut to an absolute one.
    const legacy = generateRefreshToken();
    await store.create(hashRefreshToken(legacy), { subject: ALICE.subject, familyId: newSessionId(T0_MS), expiresAt: new Date(T0_MS + 365 * DAY_MS), issuedAt: new Date(T0_MS), sessionStartedAt: new Date(T0_MS) });
    clock.advance(10 * DAY_MS);
    expectInvalidCredentials(await rejectionOf(service.refresh(legacy)));
  });

  it('a refresh just before the bound gives a successor that ends at the bound', async () => {
    const { service, clock } = createHarness({ refreshTokenTtl: 365 * DAY, sessionMaxAge: 10 * DAY });
    const first = await service.signIn(ALICE.identifier, ALICE.password);
    clock.advance(10 * DAY_MS - 1);
    const last = await service.refresh(first.refreshToken);
    expect(last.refreshTokenExpiresAt).toEqual(new Date(T0_MS + 10 * DAY_MS));
    clock.advance(1);
    expectInvalidCredentials(await rejectionOf(service.refresh(last.refreshToken)));
  });

  it('the signer is told the session end, so an access token cannot outlive it', async () => {
    const { service, clock, signer } = createHarness({ refreshTokenTtl: 30 * DAY, sessionMaxAge: 40 * DAY });
    const first = await service.signIn(ALICE.identifier, ALICE.password);
    clock.advance(29 * DAY_MS);
    await service.refresh(first.refreshToken);
    expect(signer.calls.map((call) => call.notAfter), 'sign-in and refresh both bounded by day 40').toEqual([new Date(T0_MS + 40 * DAY_MS), new Date(T0_MS + 40 * DAY_MS)]);
  });

  it('the session list still shows the first sign-in as the session start after refreshes', async () => {
    const { service, clock } = createHarness({ refreshTokenTtl: 30 * DAY });
    let pair = await service.signIn(ALICE.identifier, ALICE.password);
    for (let i = 0; i < 3; i++) {
      clock.advance(DAY_MS);
      pair = await service.refresh(pair.refreshToken);
    }
    const [session] = await service.listSessions(ALICE.subject);
    expect(session?.startedAt, 'startedAt: the sign-in').toEqual(new Date(T0_MS));
    expect(session?.lastUsedAt, 'lastUsedAt: the last refresh').toEqual(new Date(T0_MS + 3 * DAY_MS));
  });

  it('refuses to refresh a session whose start cannot be told (fail closed)', async () => {
    const { service, store } = createHarness();
    const pair = await service.signIn(ALICE.identifier, ALICE.password);
    // A store that kept neither the start nor a version-7 session id.
    const hash = hashRefreshToken(pair.refreshToken);
    const find = store.find.bind(store);
    store.find = async (tokenHash: string) => {
      const record = await find(tokenHash);
      return record == null || tokenHash !== hash ? record : { ...record, sessionStartedAt: null, familyId: 'legacy-family' };
    };
    expectInvalidCredentials(await rejectionOf(service.refresh(pair.refreshToken)));
  });
});
