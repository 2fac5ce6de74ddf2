// The accounts option wired into AuthModule.forRoot: accounts created by sign-up sign in through
// the ordinary sign-in path (once verified), a reset ends every session, a password change the
// others.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonLogger, silentLogger, type Logger } from '../../index.js';
import { InMemoryCredentialStore, InMemoryRefreshTokenStore } from '../sessions/issuing/index.js';
import { AuthConfigError, defineAuthModule } from '../index.js';
import type { AccountOptions } from '../core/auth-options.js';
import { capturingMailer, countingHasher, tokenOf } from './account-service.test-helper.js';
import { InMemoryAccountStore } from './in-memory-account-store.js';
import { authTestApp, TEST_SECRET as SECRET } from '../core/auth-test-app.test-helper.js';

const Claims = z.object({ sub: z.string(), roles: z.array(z.string()), sid: z.string().optional() });
type Claims = z.output<typeof Claims>;
const PASSWORD = 'correct horse battery';

async function setup(accounts: Partial<AccountOptions<Claims>> = {}, options: { credentialStore?: typeof InMemoryCredentialStore<Claims>; logger?: Logger } = {}) {
  const auth = defineAuthModule(Claims);
  const mailer = capturingMailer();
  const passwordHasher = await countingHasher();
  const app = await authTestApp({
    auth,
    forRoot: () => ({
      issuing: { refreshTokenStore: InMemoryRefreshTokenStore, passwordHasher, ...(options.credentialStore ? { credentialStore: options.credentialStore } : {}) },
      accounts: { store: InMemoryAccountStore, links: 'https://app.example.test', mailer, newAccountClaims: ({ subject }) => ({ sub: subject, roles: ['member'] }), ...accounts },
    }),
    app: { logger: options.logger ?? silentLogger },
  });
  const accountService = app.get(auth.ACCOUNT_SERVICE);
  const authService = app.get(auth.AUTH_SERVICE);
  const mailTo = async (to: string, index: number) => {
    await accountService.settled();
    return mailer.sent.filter((m) => m.to === to)[index];
  };
  return { app, accounts: accountService, auth: authService, mailTo, hasher: passwordHasher };
}

/** The claims of an access token, unverified (the test issued it). */
function payloadOf(accessToken: string): { sub: string; sid: string } {
  return JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub: string; sid: string };
}

describe('AuthModule.forRoot({ accounts })', () => {
  it('refuses an unverified account with the wrong-password 401, and signs it in once verified', async () => {
    const { accounts, auth, mailTo } = await setup();
    await accounts.signUp('ada@example.test', PASSWORD);
    await expect(auth.signIn('ada@example.test', PASSWORD), 'unverified').rejects.toMatchObject({ status: 401, message: 'Invalid credentials' });
    await accounts.verifyEmail(tokenOf(await mailTo('ada@example.test', 0)));
    const pair = await auth.signIn('ADA@example.test', PASSWORD);
    expect(pair.accessToken, 'signed in once verified').toMatch(/^ey/);
  });

  it('with requireVerifiedEmail: false, signs a new account in before verification', async () => {
    const { accounts, auth } = await setup({ requireVerifiedEmail: false });
    await accounts.signUp('ada@example.test', PASSWORD);
    await expect(auth.signIn('ada@example.test', PASSWORD)).resolves.toHaveProperty('refreshToken');
  });

  it('a password reset ends every session of the account, and the new password signs in', async () => {
    const { accounts, auth, mailTo } = await setup({ requireVerifiedEmail: false });
    await accounts.signUp('ada@example.test', PASSWORD);
    const [first, second] = [await auth.signIn('ada@example.test', PASSWORD), await auth.signIn('ada@example.test', PASSWORD)];
    await accounts.requestPasswordReset('ada@example.test');
    await accounts.resetPassword(tokenOf(await mailTo('ada@example.test', 1)), 'a brand new passphrase');
    await expect(auth.refresh(first.refreshToken), 'first session').rejects.toMatchObject({ status: 401 });
    await expect(auth.refresh(second.refreshToken), 'second session').rejects.toMatchObject({ status: 401 });
    await expect(auth.signIn('ada@example.test', PASSWORD), 'the old password').rejects.toMatchObject({ status: 401 });
    await expect(auth.signIn('ada@example.test', 'a brand new passphrase')).resolves.toHaveProperty('refreshToken');
  });

  it("a password change ends the account's other sessions and keeps the caller's", async () => {
    const { accounts, auth } = await setup({ requireVerifiedEmail: false });
    await accounts.signUp('ada@example.test', PASSWORD);
    const [mine, other] = [await auth.signIn('ada@example.test', PASSWORD), await auth.signIn('ada@example.test', PASSWORD)];
    const claims = payloadOf(mine.accessToken);
    await accounts.changePassword({ subject: claims.sub, sessionId: claims.sid, currentPassword: PASSWORD, newPassword: 'a brand new passphrase' });
    await expect(auth.refresh(other.refreshToken), 'the other session').rejects.toMatchObject({ status: 401 });
    await expect(auth.refresh(mine.refreshToken), "the caller's session").resolves.toHaveProperty('refreshToken');
  });

  it("counts wrong current passwords on the sign-in throttle: the 6th from one address is 429 without a check, and so is that address's next sign-in", async () => {
    const { accounts, auth, hasher } = await setup({ requireVerifiedEmail: false });
    await accounts.signUp('ada@example.test', PASSWORD);
    const claims = payloadOf((await auth.signIn('ada@example.test', PASSWORD)).accessToken);
    const context = { clientAddress: '203.0.113.9' };
    const change = { subject: claims.sub, sessionId: claims.sid, currentPassword: 'a wrong guess!!', newPassword: 'a brand new passphrase', context };
    for (let i = 0; i < 5; i++) await expect(accounts.changePassword(change), `guess ${i + 1}`).rejects.toMatchObject({ status: 403, message: 'Invalid credentials' });
    const checks = hasher.calls.verify;
    await expect(accounts.changePassword(change), 'the 6th guess').rejects.toMatchObject({ status: 429 });
    await expect(accounts.requestEmailChange({ subject: claims.sub, currentPassword: 'another guess!!', newEmail: 'eve@example.test', context }), 'an e-mail change').rejects.toMatchObject({ status: 429 });
    await expect(auth.signIn('ada@example.test', PASSWORD, context), 'a sign-in from that address').rejects.toMatchObject({ status: 429 });
    expect(hasher.calls.verify, 'no password checked once throttled').toBe(checks);
  });

  it('signs in accounts of a separate issuing.credentialStore beside the account store', async () => {
    const hash = await (await countingHasher()).hash(PASSWORD);
    class Seeded extends InMemoryCredentialStore<Claims> {
      constructor() {
        super([{ identifier: 'seed@example.test', subject: 'seed', passwordHash: hash, claims: { sub: 'seed', roles: [] } }]);
      }
    }
    const { auth } = await setup({}, { credentialStore: Seeded });
    await expect(auth.signIn('seed@example.test', PASSWORD)).resolves.toHaveProperty('refreshToken');
  });

  it('warns once at boot when no mailer is configured, and then logs the links', async () => {
    const lines: string[] = [];
    const { accounts } = await setup({ mailer: undefined }, { logger: jsonLogger({ write: (line) => lines.push(line) }) });
    expect(lines.filter((l) => l.includes('no mailer configured')).length, 'one boot warning').toBe(1);
    await accounts.signUp('ada@example.test', PASSWORD);
    await accounts.settled();
    expect(lines.some((l) => /verify-email\?token=[A-Za-z0-9_-]{43}/.test(l)), 'the verification link is in the log').toBe(true);
  });

  it('app.close() waits for the account mails still being sent', async () => {
    let release: () => void = () => undefined;
    const sent: string[] = [];
    const slowMailer = { send: (message: { to: string }) => new Promise<void>((resolve) => (release = () => (sent.push(message.to), resolve()))) };
    const { app, accounts } = await setup({ mailer: slowMailer as never });
    await accounts.signUp('ada@example.test', PASSWORD);
    await new Promise((resolve) => setTimeout(resolve, 20));
    let closed = false;
    const closing = app.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed, 'close waits while the mail is in flight').toBe(false);
    release();
    await closing;
    expect(sent).toEqual(['ada@example.test']);
  });

  it("refuses, as a server fault before any account exists, claims from newAccountClaims that the module's schema refuses", async () => {
    const { accounts, auth } = await setup({ requireVerifiedEmail: false, newAccountClaims: ({ subject }) => ({ sub: subject, roles: 'member' }) as never });
    await expect(accounts.signUp('ada@example.test', PASSWORD)).rejects.toThrow(/newAccountClaims answered claims the claims schema refuses \(invalid_type\)/);
    await expect(auth.signIn('ada@example.test', PASSWORD), 'no account was created').rejects.toMatchObject({ status: 401 });
  });

  it('refuses accounts without issuing, and issuing without a credential store unless accounts are given', () => {
    const auth = defineAuthModule(Claims);
    const accounts = { store: InMemoryAccountStore, links: 'https://x.test', newAccountClaims: () => ({ sub: 'x', roles: [] }) };
    expect(() => auth.AuthModule.forRoot({ secret: SECRET, accounts })).toThrow(AuthConfigError);
    expect(() => auth.AuthModule.forRoot({ secret: SECRET, issuing: { refreshTokenStore: InMemoryRefreshTokenStore } })).toThrow(/credentialStore is required/);
    expect(() => auth.AuthModule.forRoot({ secret: SECRET, issuing: { refreshTokenStore: InMemoryRefreshTokenStore }, accounts: { ...accounts, passwordPolicy: { minLength: 6 } } })).toThrow(/minLength/);
  });
});
