// Sign-up and the routes that send mail, throttled per client address and per address mailed
// (ASVS 5.0 2.4.1) before anything is hashed, stored or mailed, on the app's shared counters.
import { describe, expect, it } from 'vitest';
import { InMemoryRateLimitCounter } from '../../index.js';
import { ACCOUNT_ROUTE_THROTTLED_MESSAGE, type SignInCounterFactory } from '../index.js';
import { routesTestApp, type RoutesTestApp } from './auth-routes.test-helper.js';

const HERE = '203.0.113.7';
const PASSWORD = 'a-long-password-1';
// Mails of the account service unlimited, so that a token written tells that a request got through.
const unlimitedMail = () => new InMemoryRateLimitCounter({ limit: 1_000_000, windowMs: 3_600_000 });

async function signUp(t: RoutesTestApp, email: string, clientAddress?: string) {
  return t.call('POST', '/auth/sign-up', { json: { email, password: PASSWORD }, ...(clientAddress === undefined ? {} : { clientAddress }) });
}

describe('throttled account routes', () => {
  it('refuses the 81st sign-up from one client address in a day (10 per 10 minutes), with no hash and no row', async () => {
    const t = await routesTestApp();
    for (let batch = 0; batch < 8; batch++) {
      for (let i = 0; i < 10; i++) expect((await signUp(t, `person-${batch}-${i}@example.com`, HERE)).status, `sign-up ${batch * 10 + i + 1}`).toBe(202);
      t.clock.advance(601_000);
    }
    expect(t.work).toMatchObject({ hashes: 80, accountsCreated: 80 });
    const refused = await signUp(t, 'person-81@example.com', HERE);
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ status: 429, detail: ACCOUNT_ROUTE_THROTTLED_MESSAGE });
    expect(Number(refused.headers.get('retry-after')), 'until the day\u2019s window ends').toBeGreaterThan(80_000);
    expect(t.work, 'no Argon2id hash, no row for the refused sign-up').toMatchObject({ hashes: 80, accountsCreated: 80 });
    expect((await signUp(t, 'elsewhere@example.com', '198.51.100.20')).status, 'another client').toBe(202);
  });

  it('refuses the 11th sign-up from one address within 10 minutes', async () => {
    const t = await routesTestApp();
    for (let i = 0; i < 10; i++) expect((await signUp(t, `p${i}@example.com`, HERE)).status).toBe(202);
    expect((await signUp(t, 'p10@example.com', HERE)).status).toBe(429);
    t.clock.advance(601_000);
    expect((await signUp(t, 'p10@example.com', HERE)).status, 'the next window').toBe(202);
  });

  it('counts an IPv6 client by its /64', async () => {
    const t = await routesTestApp({ routes: { accounts: true, throttle: { signUpPerClient: [{ requests: 2, windowSeconds: 600 }] } } });
    expect((await signUp(t, 'a@example.com', '2001:db8:1:2::1')).status).toBe(202);
    expect((await signUp(t, 'b@example.com', '2001:db8:1:2::ffff')).status).toBe(202);
    expect((await signUp(t, 'c@example.com', '2001:db8:1:2:3:4:5:6')).status, 'the same /64').toBe(429);
  });

  it('refuses the 11th forgot-password request for one address in an hour, from any client, writing no token', async () => {
    const t = await routesTestApp({}, unlimitedMail());
    const forgot = (email: string, i: number) => t.call('POST', '/auth/password/forgot', { json: { email }, clientAddress: `198.51.100.${i + 1}` });
    for (let i = 0; i < 10; i++) expect((await forgot('alice@acme.test', i)).status, `request ${i + 1}`).toBe(202);
    await t.app.get(t.auth.ACCOUNT_SERVICE).settled();
    expect(t.work.tokensIssued).toBe(10);
    const refused = await forgot('ALICE@acme.test ', 10);
    expect(refused.status, 'the same address in another spelling (normalizeIdentifier)').toBe(429);
    await t.app.get(t.auth.ACCOUNT_SERVICE).settled();
    expect(t.work.tokensIssued, 'no reset token for the refused request').toBe(10);
    expect((await forgot('nobody@acme.test', 11)).status, 'another address').toBe(202);
  });

  it('answers an address without an account exactly as one with: the count tells nobody who has one', async () => {
    const t = await routesTestApp();
    const answers = async (email: string) => {
      const seen: number[] = [];
      for (let i = 0; i < 11; i++) seen.push((await t.call('POST', '/auth/password/forgot', { json: { email } })).status);
      return seen;
    };
    expect(await answers('alice@acme.test')).toEqual(await answers('nobody@acme.test'));
  });

  it('refuses the 11th resend-verification request for one address, writing no token', async () => {
    const t = await routesTestApp({}, unlimitedMail());
    expect((await signUp(t, 'new@example.com')).status).toBe(202);
    const resend = () => t.call('POST', '/auth/verify-email/resend', { json: { email: 'new@example.com' } });
    // The sign-up counted on the address mailed too: 9 more requests fill its budget of 10.
    for (let i = 0; i < 9; i++) expect((await resend()).status, `resend ${i + 1}`).toBe(202);
    await t.app.get(t.auth.ACCOUNT_SERVICE).settled();
    const written = t.work.tokensIssued;
    expect(written, 'the sign-up\u2019s link and 9 resent ones').toBe(10);
    expect((await resend()).status).toBe(429);
    await t.app.get(t.auth.ACCOUNT_SERVICE).settled();
    expect(t.work.tokensIssued).toBe(written);
  });

  it('counts on the sign-in throttle\u2019s counters (the app\u2019s shared counter) unless given its own', async () => {
    const names: string[] = [];
    const counters: SignInCounterFactory = (options) => {
      names.push(options.name);
      return new InMemoryRateLimitCounter(options);
    };
    await routesTestApp({ signInThrottle: { counters } });
    expect(names).toEqual(expect.arrayContaining(['account-sign-up-client-600s', 'account-sign-up-client-86400s', 'account-mail-client-600s', 'account-email-3600s', 'sign-in-account-3600s']));
  });

  it('is off with throttle: false, and refuses bad budgets at forRoot', async () => {
    const t = await routesTestApp({ routes: { accounts: true, throttle: false } });
    for (let i = 0; i < 12; i++) expect((await signUp(t, `p${i}@example.com`, HERE)).status).toBe(202);
    await expect(routesTestApp({ routes: { accounts: true, throttle: { perEmail: [{ requests: 0, windowSeconds: 60 }] } } })).rejects.toThrow(RangeError);
  });
});
