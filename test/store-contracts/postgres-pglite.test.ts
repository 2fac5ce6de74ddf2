// The shared store contracts against the PostgreSQL stores on PGlite: real PostgreSQL SQL, in
// process, no server. One database for the whole file (PGlite takes 1-3 s to start); tests use
// unique ids, so they need no cleanup. PGlite has one connection, so the race here interleaves
// statements of 50 callers on it; real separate connections are in postgres-server.test.ts.
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../lib/index.js';
import { PostgresRefreshTokenStore } from '../../lib/auth/postgres/index.js';
import { useMigratedPGlite } from '../postgres/support/pglite.js';
import { apiKeyHandle, credentialHandle, familyTokens, rateLimitCounter } from '../postgres/support/store-handles.js';
import { describeApiKeyStoreContract } from './api-key-store-contract.js';
import { describeCredentialStoreContract } from './credential-store-contract.js';
import { describeRateLimitCounterContract } from './rate-limit-counter-contract.js';
import { describeRefreshRaceContract } from './refresh-race-contract.js';
import { describeRefreshTokenStoreContract } from './refresh-token-store-contract.js';
import { randomHash, T0 } from './contract-fixtures.js';

const lite = useMigratedPGlite();

describeCredentialStoreContract('postgres on PGlite', async () => credentialHandle(lite.db));
describeRefreshTokenStoreContract('postgres on PGlite', async (clock) => new PostgresRefreshTokenStore(lite.db, { clock }));
describeRefreshRaceContract('postgres on PGlite', 50, async (clock, callers) => ({
  stores: Array.from({ length: callers }, () => new PostgresRefreshTokenStore(lite.db, { clock })),
  familyTokens: (familyId) => familyTokens(lite.db, familyId),
}));
describeApiKeyStoreContract('postgres on PGlite', async () => apiKeyHandle(lite.db));
describeRateLimitCounterContract('postgres on PGlite', async (limit, windowMs, clock) => rateLimitCounter(lite.db, limit, windowMs, clock));

describe('PostgresRateLimitCounter.sweep (PGlite)', () => {
  it('deletes only the windows that have ended', async () => {
    const clock = createManualClock(T0);
    const counter = rateLimitCounter(lite.db, 2, 10_000, clock);
    await counter.hit('k');
    clock.advance(9_999);
    expect(await counter.sweep(), 'a window 1 ms before its end stays').toBe(0);
    clock.advance(1);
    expect(await counter.sweep(), 'a window at its end is gone').toBe(1);
  });
});

describe('PostgresRefreshTokenStore.purgeExpired (PGlite)', () => {
  it('deletes only tokens that expired before the given moment', async () => {
    const store = new PostgresRefreshTokenStore(lite.db);
    const subject = `purge-${T0}`;
    const [old, fresh] = [randomHash(), randomHash()];
    await store.create(old, { subject, familyId: 'p', expiresAt: new Date(T0 - 86_400_000 * 400) });
    await store.create(fresh, { subject, familyId: 'p', expiresAt: new Date(T0 + 60_000) });
    expect(await store.purgeExpired(new Date(T0 - 86_400_000 * 300))).toBeGreaterThanOrEqual(1);
    expect(await store.find(old)).toBeUndefined();
    expect(await store.find(fresh)).toBeDefined();
  });
});
