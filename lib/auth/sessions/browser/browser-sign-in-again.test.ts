// A browser sign-in from a browser that already holds a session ends that session (ASVS 5.0
// 7.2.4): the one its cookies carry, on every instance; the person's other devices keep theirs.
import { describe, expect, it } from 'vitest';
import { createManualClock, inProcessPubSub } from '../../../index.js';
import { send } from '../../../../test/http-helpers.js';
import { InMemoryRefreshTokenStore } from '../../index.js';
import { sessionIdOfAccessToken } from './browser-credentials.js';
import { ALICE, BOB, NOW, SAME_ORIGIN, browserSignIn, browserTestApp, type BrowserJar } from './browser-test-app.test-helper.js';

const me = async (app: Parameters<typeof browserSignIn>[0], jar: BrowserJar) => (await send(app, 'GET', '/me', { headers: { cookie: jar.cookie } })).status;
const refresh = async (app: Parameters<typeof browserSignIn>[0], jar: BrowserJar) => (await send(app, 'POST', '/auth/browser/refresh', { headers: { cookie: jar.cookie, 'x-csrf-token': jar.csrf, ...SAME_ORIGIN } })).status;

describe('a browser signing in again', () => {
  it("ends the session its cookies carried: that session's access and refresh cookies are refused", async () => {
    const { app } = await browserTestApp();
    const old = await browserSignIn(app);
    const fresh = await browserSignIn(app, ALICE, { cookie: old.cookie });
    expect(await me(app, old), 'the old access cookie').toBe(401);
    expect(await refresh(app, old), 'the old refresh cookie').toBe(401);
    expect(await me(app, fresh), 'the new session').toBe(200);
  });

  it("keeps the person's other devices signed in", async () => {
    const { app, auth } = await browserTestApp();
    const phone = await browserSignIn(app);
    const laptop = await browserSignIn(app);
    const again = await browserSignIn(app, ALICE, { cookie: laptop.cookie });
    expect(await me(app, phone), 'the phone').toBe(200);
    const live = (await auth.listSessions(ALICE.subject)).map((session) => session.id).sort();
    expect(live, 'the phone and the new laptop session').toEqual([sessionIdOfAccessToken(phone.access), sessionIdOfAccessToken(again.access)].sort());
  });

  it('ends it when another account signs in on that browser, too', async () => {
    const { app } = await browserTestApp();
    const alices = await browserSignIn(app);
    await browserSignIn(app, BOB, { cookie: alices.cookie });
    expect(await me(app, alices), "alice's session on the shared browser").toBe(401);
  });

  it('a failed sign-in ends nothing', async () => {
    const { app } = await browserTestApp();
    const jar = await browserSignIn(app);
    const res = await send(app, 'POST', '/auth/browser/sign-in', { json: { identifier: ALICE.identifier, password: 'wrong' }, headers: { cookie: jar.cookie, ...SAME_ORIGIN } });
    expect(res.status).toBe(401);
    expect(await me(app, jar)).toBe(200);
  });

  it('the ended session is refused on another instance too', async () => {
    const clock = createManualClock(NOW);
    const refreshTokens = new InMemoryRefreshTokenStore(clock);
    const bus = inProcessPubSub();
    const a = await browserTestApp({}, { pubsub: bus }, { clock, refreshTokens });
    const b = await browserTestApp({}, { pubsub: bus }, { clock, refreshTokens });
    const old = await browserSignIn(a.app);
    expect(await me(b.app, old), 'B accepts it first').toBe(200);
    await browserSignIn(a.app, ALICE, { cookie: old.cookie });
    expect(await me(b.app, old), 'B refuses it').toBe(401);
  });
});
