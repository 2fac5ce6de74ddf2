// Sessions per device on PostgresRefreshTokenStore (migration 5's columns), through the
// token-issuing service: on PGlite always, on a real server with TEST_DATABASE_URL.
import { beforeEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../lib/index.js';
import type { SqlClient } from '../../lib/postgres/index.js';
import { PostgresRefreshTokenStore } from '../../lib/auth/postgres/index.js';
import { ALICE, BOB, T0_MS, createHarnessWithStore, expectInvalidCredentials, rejectionOf } from '../../lib/auth/sessions/issuing/issuing-fixtures.test-helper.js';
import { useMigratedPGlite } from './support/pglite.js';
import { TEST_DATABASE_URL, useMigratedTestDatabase } from './support/test-database.js';

const FIREFOX = { userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0', clientAddress: '203.0.113.7' };
const PHONE = { userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1', clientAddress: '2001:db8::42' };

function describeSessionsOn(name: string, client: () => SqlClient): void {
  describe(`sessions per device on PostgreSQL (${name})`, () => {
    // The harness's accounts are fixed: each test starts from an empty table.
    beforeEach(async () => {
      await client().query('DELETE FROM tessera_refresh_tokens', []);
    });
    const harness = () => {
      const clock = createManualClock(T0_MS);
      return createHarnessWithStore(new PostgresRefreshTokenStore(client(), { clock }), clock);
    };
    // The harness's signer makes no JWTs: the session id is read from the store.
    const sids = async (subject: string, service: ReturnType<typeof harness>['service']) => (await service.listSessions(subject)).map((s) => s.id);

    it('lists each sign-in with its metadata; a refresh moves lastUsedAt only', async () => {
      const { service, clock } = harness();
      const firefox = await service.signIn(ALICE.identifier, ALICE.password, FIREFOX);
      clock.advance(60_000);
      await service.signIn(ALICE.identifier, ALICE.password, PHONE);
      clock.advance(60_000);
      await service.refresh(firefox.refreshToken);
      const sessions = await service.listSessions(ALICE.subject);
      expect(sessions.map(({ id: _id, ...rest }) => rest)).toEqual([
        { startedAt: new Date(T0_MS), lastUsedAt: new Date(T0_MS + 120_000), ...FIREFOX },
        { startedAt: new Date(T0_MS + 60_000), lastUsedAt: new Date(T0_MS + 60_000), ...PHONE },
      ]);
    });

    it('revokeSession ends the caller\'s own session and answers false alike for another person\'s and an unknown id', async () => {
      const { service } = harness();
      const mine = await service.signIn(ALICE.identifier, ALICE.password);
      const bobs = await service.signIn(BOB.identifier, BOB.password);
      const [mySid] = await sids(ALICE.subject, service);
      const [bobSid] = await sids(BOB.subject, service);
      expect(await service.revokeSession(ALICE.subject, bobSid as string), 'bob\'s id asked by alice').toBe(false);
      expect(await service.revokeSession(ALICE.subject, '019ab3c4-5d6e-7f01-8a2b-3c4d5e6f7a8b'), 'unknown').toBe(false);
      await expect(service.refresh(bobs.refreshToken), 'bob\'s session untouched').resolves.toHaveProperty('refreshToken');
      expect(await service.revokeSession(ALICE.subject, mySid as string)).toBe(true);
      expectInvalidCredentials(await rejectionOf(service.refresh(mine.refreshToken)));
      expect(await service.listSessions(ALICE.subject)).toEqual([]);
    });

    it('revokeOtherSessions keeps only the given session', async () => {
      const { service, clock } = harness();
      await service.signIn(ALICE.identifier, ALICE.password);
      clock.advance(1);
      const kept = await service.signIn(ALICE.identifier, ALICE.password);
      clock.advance(1);
      await service.signIn(ALICE.identifier, ALICE.password);
      const keptSid = (await sids(ALICE.subject, service))[1] as string;
      await service.revokeOtherSessions(ALICE.subject, keptSid);
      expect(await sids(ALICE.subject, service)).toEqual([keptSid]);
      await expect(service.refresh(kept.refreshToken)).resolves.toHaveProperty('refreshToken');
    });
  });
}

const lite = useMigratedPGlite();
describeSessionsOn('PGlite', () => lite.db);

describe.skipIf(TEST_DATABASE_URL === undefined)('real PostgreSQL server (TEST_DATABASE_URL)', () => {
  const db = useMigratedTestDatabase(4);
  describeSessionsOn('server', () => db.pool);
});
