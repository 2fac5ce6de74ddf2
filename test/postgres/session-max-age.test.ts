// The absolute session lifetime on PostgresRefreshTokenStore, through the token-issuing service:
// the session's start is kept in session_started_at (migration 5), so no column is added; on
// PGlite always, on a real server with TEST_DATABASE_URL. In memory: lib/auth/sessions/issuing/session-max-age.test.ts.
import { beforeEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../lib/index.js';
import type { SqlClient } from '../../lib/postgres/index.js';
import { PostgresRefreshTokenStore } from '../../lib/auth/postgres/index.js';
import { generateRefreshToken, hashRefreshToken, newSessionId } from '../../lib/auth/sessions/issuing/index.js';
import { ALICE, T0_MS, createHarnessWithStore, expectInvalidCredentials, rejectionOf } from '../../lib/auth/sessions/issuing/issuing-fixtures.test-helper.js';
import { useMigratedPGlite } from './support/pglite.js';
import { TEST_DATABASE_URL, useMigratedTestDatabase } from './support/test-database.js';

const DAY = 86_400;
const DAY_MS = DAY * 1000;

function describeMaxAgeOn(name: string, client: () => SqlClient): void {
  describe(`absolute session lifetime on PostgreSQL (${name})`, () => {
    beforeEach(async () => {
      await client().query('DELETE FROM tessera_refresh_tokens', []);
    });
    const harness = (sessionMaxAge?: number) => {
      const clock = createManualClock(T0_MS);
      return createHarnessWithStore(new PostgresRefreshTokenStore(client(), { clock }), clock, { refreshTokenTtl: 30 * DAY, sessionMaxAge });
    };

    it('a refresh token refreshed every 29 days stops working at the default bound (30 days)', async () => {
      const { service, clock } = harness();
      let pair = await service.signIn(ALICE.identifier, ALICE.password);
      clock.advance(29 * DAY_MS);
      pair = await service.refresh(pair.refreshToken);
      expect(pair.refreshTokenExpiresAt, 'the successor ends at day 30, not day 59').toEqual(new Date(T0_MS + 30 * DAY_MS));
      clock.advance(29 * DAY_MS);
      expectInvalidCredentials(await rejectionOf(service.refresh(pair.refreshToken)));
    });

    it('a configured bound (90 days) holds across refreshes, and the session list keeps the first sign-in', async () => {
      const { service, clock } = harness(90 * DAY);
      let pair = await service.signIn(ALICE.identifier, ALICE.password);
      for (let day = 29; day < 90; day += 29) {
        clock.advance(29 * DAY_MS);
        pair = await service.refresh(pair.refreshToken);
      }
      expect((await service.listSessions(ALICE.subject)).map((s) => s.startedAt), 'the first sign-in').toEqual([new Date(T0_MS)]);
      clock.advance(29 * DAY_MS);
      expectInvalidCredentials(await rejectionOf(service.refresh(pair.refreshToken)));
    });

    it('a row stored before the bound (a year of expiry) is refused once its session is older than the bound', async () => {
      const { service, clock, store } = harness(10 * DAY);
      const legacy = generateRefreshToken();
      await store.create(hashRefreshToken(legacy), { subject: ALICE.subject, familyId: newSessionId(T0_MS), expiresAt: new Date(T0_MS + 365 * DAY_MS), issuedAt: new Date(T0_MS) });
      // The row has no session_started_at (as rows from before migration 5): the start is read from the session id.
      clock.advance(10 * DAY_MS);
      expectInvalidCredentials(await rejectionOf(service.refresh(legacy)));
    });
  });
}

const lite = useMigratedPGlite();
describeMaxAgeOn('PGlite', () => lite.db);

describe.skipIf(TEST_DATABASE_URL === undefined)('real PostgreSQL server (TEST_DATABASE_URL)', () => {
  const db = useMigratedTestDatabase(4);
  describeMaxAgeOn('server', () => db.pool);
});
