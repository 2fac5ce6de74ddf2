// A control for the refresh-race contract: a store that does read-then-write in JavaScript (the
// thing the PostgreSQL stores must never do) hands out several TokenPairs for one token under
// the same 50-way race, while the real store hands out exactly one. It shows the race test can
// fail, i.e. that its "exactly one" for the real store is evidence and not luck.
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../lib/index.js';
import { InMemoryCredentialStore, TokenIssuingService } from '../../lib/auth/sessions/issuing/index.js';
import type { RefreshTokenStore } from '../../lib/auth/sessions/issuing/index.js';
import { PostgresRefreshTokenStore } from '../../lib/auth/postgres/index.js';
import type { SqlClient } from '../../lib/postgres/index.js';
import { ContractClaims, fakeAccessTokens, T0 } from '../store-contracts/contract-fixtures.js';
import { useMigratedPGlite } from './support/pglite.js';

/** markRotated as a naive read-then-write: check in JS, then write unconditionally. */
function readThenWrite(client: SqlClient, clock: { now(): number }): RefreshTokenStore {
  const real = new PostgresRefreshTokenStore(client, { clock });
  return {
    create: (h, t) => real.create(h, t),
    find: (h) => real.find(h),
    revoke: (h) => real.revoke(h),
    revokeAllForSubject: (s) => real.revokeAllForSubject(s),
    async markRotated(tokenHash) {
      const record = await real.find(tokenHash);
      if (record == null || record.rotatedAt != null || record.revokedAt != null) return false;
      await new Promise((resolve) => setTimeout(resolve, 10)); // any other work between the read and the write
      await client.query('UPDATE tessera_refresh_tokens SET rotated_at = $2::timestamptz WHERE token_hash = $1', [tokenHash, new Date(clock.now()).toISOString()]);
      return true;
    },
  };
}

async function winners(store: RefreshTokenStore, clock: { now(): number }): Promise<number> {
  const credentials = new InMemoryCredentialStore<ContractClaims>([{ identifier: 'c@example.test', subject: 'c', passwordHash: 'unused', claims: { sub: 'c', roles: [] } }]);
  const service = new TokenIssuingService<ContractClaims>({
    claimsSchema: ContractClaims,
    credentialStore: credentials,
    refreshTokenStore: store,
    accessTokens: fakeAccessTokens(clock),
    clock,
    passwordVerifier: { verify: async () => false, dummyHash: async () => 'unused' },
  });
  const pair = await service.issueTokens('c');
  const results = await Promise.allSettled(Array.from({ length: 50 }, () => service.refresh(pair.refreshToken)));
  return results.filter((r) => r.status === 'fulfilled').length;
}

describe('refresh race control (PGlite)', () => {
  const lite = useMigratedPGlite();

  it('read-then-write hands out many TokenPairs for one token; the single-statement compare-and-set exactly one', async () => {
    const clock = createManualClock(T0);
    const naive = await winners(readThenWrite(lite.db, clock), clock);
    const real = await winners(new PostgresRefreshTokenStore(lite.db, { clock }), clock);
    console.info(`[race control] 50 concurrent refreshes: read-then-write ${naive} winners, PostgresRefreshTokenStore ${real}`);
    expect(naive).toBeGreaterThan(1);
    expect(real).toBe(1);
  });
});
