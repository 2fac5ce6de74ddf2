// Ending a session on one instance refuses its access token on another at once: two apps in one
// process sharing the refresh-token store and an in-process bus, as two instances share
// PostgreSQL and Redis (the same path as sign-out, see session-revocation.test.ts).
import { describe, expect, it } from 'vitest';
import { createManualClock, inProcessPubSub } from '../../../index.js';
import { InMemoryRefreshTokenStore } from '../../index.js';
import { send } from '../../../../test/http-helpers.js';
import { ALICE, NOW, browserSignIn, browserTestApp } from '../browser/browser-test-app.test-helper.js';
import { sessionIdOfAccessToken } from '../browser/browser-credentials.js';

async function twoInstances() {
  const clock = createManualClock(NOW);
  const refreshTokens = new InMemoryRefreshTokenStore(clock);
  const bus = inProcessPubSub();
  const a = await browserTestApp({}, { pubsub: bus }, { clock, refreshTokens });
  const b = await browserTestApp({}, { pubsub: bus }, { clock, refreshTokens });
  return { a, b };
}

describe('ending a session, across instances', () => {
  it('revokeSession on A: the session\'s access cookie is refused by B, which had accepted it', async () => {
    const { a, b } = await twoInstances();
    const ended = await browserSignIn(a.app);
    const kept = await browserSignIn(a.app);
    expect((await send(b.app, 'GET', '/me', { headers: { cookie: ended.cookie } })).status, 'B accepts it first').toBe(200);
    expect(await a.auth.revokeSession(ALICE.subject, sessionIdOfAccessToken(ended.access) as string)).toBe(true);
    expect((await send(b.app, 'GET', '/me', { headers: { cookie: ended.cookie } })).status, 'B refuses the ended session').toBe(401);
    expect((await send(b.app, 'GET', '/me', { headers: { cookie: kept.cookie } })).status, 'B keeps the other session').toBe(200);
  });

  it('revokeOtherSessions on B: every other session of the person is refused by A', async () => {
    const { a, b } = await twoInstances();
    const [first, current, third] = [await browserSignIn(a.app), await browserSignIn(a.app), await browserSignIn(a.app)];
    await b.auth.revokeOtherSessions(ALICE.subject, sessionIdOfAccessToken(current.access) as string);
    const statuses = await Promise.all([first, current, third].map(async (jar) => (await send(a.app, 'GET', '/me', { headers: { cookie: jar.cookie } })).status));
    expect(statuses).toEqual([401, 200, 401]);
  });
});
