// The browser (cookie) sign-in goes through AUTH_SERVICE.signIn, so the throttle covers it too.
import { describe, expect, it } from 'vitest';
import { send } from '../../../test/http-helpers.js';
import { ALICE, browserTestApp, SAME_ORIGIN } from '../sessions/browser/browser-test-app.test-helper.js';

describe('sign-in throttling of the browser sign-in', () => {
  it('answers 429 with Retry-After and sets no cookie once the account is over its tier (no address under app.request: the account alone counts)', async () => {
    const { app } = await browserTestApp();
    const attempt = (password: string) => send(app, 'POST', '/auth/browser/sign-in', { json: { identifier: ALICE.identifier, password }, headers: SAME_ORIGIN });
    for (let i = 0; i < 50; i++) expect((await attempt('wrong')).status, `failure ${i + 1}`).toBe(401);
    const refused = await attempt(ALICE.password);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('3600');
    expect(refused.headers.getSetCookie(), 'no session cookie').toEqual([]);
  });
});
