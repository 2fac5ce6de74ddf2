import { describe, expect, it } from 'vitest';
import { INVALID_ACCOUNT_LINK_MESSAGE } from './invalid-account-link.js';
import { accountFixture, tokenOf } from './account-service.test-helper.js';

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'staple paper clip lamp';

describe('AccountService sign-up and verification', () => {
  it('creates an unverified account and mails a verification link to the normalised address', async () => {
    const { service, store, mailsTo } = await accountFixture();
    await service.signUp('  Ada@Example.TEST ', PASSWORD);
    const account = await store.findByEmail('ada@example.test');
    expect(account?.emailVerified, 'a new account starts unverified').toBe(false);
    const [mail, ...more] = await mailsTo('ada@example.test');
    expect(more, 'one mail').toEqual([]);
    expect(mail?.text).toMatch(/^Verify this address: https:\/\/app\.example\.test\/verify-email\?token=[A-Za-z0-9_-]{43}$/m);
    expect(mail?.html, 'the HTML body links the same URL').toContain(`href="https://app.example.test/verify-email?token=${tokenOf(mail)}"`);
  });

  it('verifyEmail with the mailed token marks the address verified, once', async () => {
    const { service, store, mailsTo } = await accountFixture();
    await service.signUp('ada@example.test', PASSWORD);
    const token = tokenOf((await mailsTo('ada@example.test'))[0]);
    await service.verifyEmail(token);
    expect((await store.findByEmail('ada@example.test'))?.emailVerified).toBe(true);
    await expect(service.verifyEmail(token), 'a second use').rejects.toMatchObject({ status: 400, message: INVALID_ACCOUNT_LINK_MESSAGE });
  });

  it('refuses a verification token after its 24 hours', async () => {
    const { service, clock, mailsTo } = await accountFixture();
    await service.signUp('ada@example.test', PASSWORD);
    const token = tokenOf((await mailsTo('ada@example.test'))[0]);
    clock.advance(86_400_000);
    await expect(service.verifyEmail(token)).rejects.toMatchObject({ status: 400, message: INVALID_ACCOUNT_LINK_MESSAGE });
  });

  it('refuses malformed and unknown tokens alike', async () => {
    const { service } = await accountFixture();
    for (const token of ['', 'x'.repeat(5000), 'A'.repeat(43)]) {
      await expect(service.verifyEmail(token), `token of length ${token.length}`).rejects.toMatchObject({ status: 400, message: INVALID_ACCOUNT_LINK_MESSAGE });
    }
  });

  it('a taken address answers the same, keeps the account as it was and mails its owner a notice with a reset link', async () => {
    const { service, store, hasher, mailsTo } = await accountFixture();
    await service.signUp('ada@example.test', PASSWORD);
    const before = await store.findByEmail('ada@example.test');
    await service.settled();
    await expect(service.signUp('ADA@example.test', 'someone else entirely'), 'the second sign-up resolves like the first').resolves.toBeUndefined();
    expect(await store.findByEmail('ada@example.test'), 'the account is unchanged').toEqual(before);
    const mails = await mailsTo('ada@example.test');
    expect(mails.map((m) => m.subject)).toEqual(['Verify your address for app.example.test', 'Someone tried to sign up to app.example.test with your address']);
    expect(mails[1]?.text).toMatch(/reset-password\?token=/);
    expect(await hasher.verify(PASSWORD, before?.passwordHash ?? ''), 'the first password still holds').toBe(true);
  });

  it('does one Argon2id hash and one createAccount on both paths (new address and taken address)', async () => {
    const fixture = await accountFixture();
    let creates = 0;
    const create = fixture.store.createAccount.bind(fixture.store);
    fixture.store.createAccount = async (account) => (creates++, create(account));
    await fixture.service.signUp('new@example.test', PASSWORD);
    const newPath = { hash: fixture.hasher.calls.hash, verify: fixture.hasher.calls.verify, creates };
    await fixture.service.signUp('new@example.test', PASSWORD);
    const takenPath = { hash: fixture.hasher.calls.hash - newPath.hash, verify: fixture.hasher.calls.verify - newPath.verify, creates: creates - newPath.creates };
    expect(newPath, 'a new address').toEqual({ hash: 1, verify: 0, creates: 1 });
    expect(takenPath, 'a taken address does the same work').toEqual(newPath);
  });

  it('answers before the mail is sent: a mailer that never finishes delays neither path', async () => {
    const { service } = await accountFixture({ mailer: { send: () => new Promise<void>(() => undefined) } });
    const calls = {
      'sign-up, new address': () => service.signUp('ada@example.test', PASSWORD),
      'sign-up, taken address': () => service.signUp('ada@example.test', PASSWORD),
      'reset, known address': () => service.requestPasswordReset('ada@example.test'),
      'reset, unknown address': () => service.requestPasswordReset('nobody@example.test'),
    };
    for (const [name, call] of Object.entries(calls)) {
      const outcome = await Promise.race([call().then(() => 'answered'), new Promise((resolve) => setTimeout(resolve, 2_000, 'waited for the mail'))]);
      expect(outcome, name).toBe('answered');
    }
  });

  it('reset requests read no store before answering, for a known and an unknown address alike', async () => {
    const fixture = await accountFixture();
    await fixture.service.signUp('ada@example.test', PASSWORD);
    await fixture.service.settled();
    let reads = 0;
    const find = fixture.store.findByEmail.bind(fixture.store);
    fixture.store.findByEmail = async (email) => (reads++, find(email));
    for (const address of ['ada@example.test', 'nobody@example.test']) {
      await fixture.service.requestPasswordReset(address);
      expect(reads, `store reads before the answer for ${address}`).toBe(0);
      await fixture.service.settled();
      expect(reads, `the lookup for ${address} ran after the answer`).toBe(1);
      reads = 0;
    }
  });

  it('takes about the same time for a new and a taken address (median of interleaved runs within 2x)', async () => {
    const { service } = await accountFixture();
    await service.signUp('taken@example.test', PASSWORD);
    const times = { fresh: [] as number[], taken: [] as number[] };
    for (let i = 0; i < 8; i++) {
      let start = performance.now();
      await service.signUp(`fresh-${i}@example.test`, PASSWORD);
      times.fresh.push(performance.now() - start);
      start = performance.now();
      await service.signUp('taken@example.test', PASSWORD);
      times.taken.push(performance.now() - start);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    const ratio = median(times.taken) / median(times.fresh);
    expect(ratio, `taken/new median ratio (new ${median(times.fresh).toFixed(1)} ms)`).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });

  it('refuses a malformed address and a password outside the policy with a 400, before hashing', async () => {
    const { service, hasher } = await accountFixture();
    await expect(service.signUp('not-an-address', PASSWORD)).rejects.toMatchObject({ status: 400, details: { field: 'email' } });
    await expect(service.signUp('ada@example.test', 'short')).rejects.toMatchObject({ status: 400, details: { field: 'password', minLength: 12 } });
    await expect(service.signUp('ada@example.test', 'x'.repeat(1025))).rejects.toMatchObject({ status: 400, details: { field: 'password', maxBytes: 1024 } });
    expect(hasher.calls.hash, 'no hash for refused input').toBe(0);
  });

  it("applies the policy's own check", async () => {
    const { service } = await accountFixture({ passwordPolicy: { check: (pw) => (pw.includes('horse') ? 'This password is too common' : undefined) } });
    await expect(service.signUp('ada@example.test', PASSWORD)).rejects.toMatchObject({ status: 400, message: 'This password is too common' });
  });

  it('requestEmailVerification mails a fresh link to an unverified account only, superseding the old one', async () => {
    const { service, mailsTo } = await accountFixture();
    await service.signUp('ada@example.test', PASSWORD);
    const first = tokenOf((await mailsTo('ada@example.test'))[0]);
    await service.requestEmailVerification('ada@example.test');
    await service.requestEmailVerification('nobody@example.test');
    const mails = await mailsTo('ada@example.test');
    expect(mails.length, 'a second verification mail').toBe(2);
    await expect(service.verifyEmail(first), 'the superseded link').rejects.toMatchObject({ status: 400 });
    await service.verifyEmail(tokenOf(mails[1]));
    await service.requestEmailVerification('ada@example.test');
    expect((await mailsTo('ada@example.test')).length, 'nothing for a verified account').toBe(2);
    expect(await mailsTo('nobody@example.test'), 'nothing for an unknown address').toEqual([]);
  });
});

describe('AccountService password reset', () => {
  it('mails a reset link to an account and nothing to an unknown address, answering the same', async () => {
    const { service, mailsTo } = await accountFixture();
    await service.signUp('ada@example.test', PASSWORD);
    await expect(service.requestPasswordReset('ada@example.test')).resolves.toBeUndefined();
    await expect(service.requestPasswordReset('nobody@example.test')).resolves.toBeUndefined();
    expect((await mailsTo('ada@example.test'))[1]?.text).toMatch(/\/reset-password\?token=[A-Za-z0-9_-]{43}$/m);
    expect(await mailsTo('nobody@example.test')).toEqual([]);
  });

  it('sets the new password, verifies the address, ends every session and tells the owner', async () => {
    const { service, store, hasher, sessionCalls, mailsTo } = await accountFixture();
    await service.signUp('ada@example.test', PASSWORD);
    await service.requestPasswordReset('ada@example.test');
    const token = tokenOf((await mailsTo('ada@example.test'))[1]);
    await service.resetPassword(token, NEW_PASSWORD);
    const account = await store.findByEmail('ada@example.test');
    expect(await hasher.verify(NEW_PASSWORD, account?.passwordHash ?? '')).toBe(true);
    expect(account?.emailVerified, 'the reset link proved the mailbox').toBe(true);
    expect(sessionCalls).toEqual([`revokeAll ${account?.subject}`]);
    expect((await mailsTo('ada@example.test')).at(-1)?.subject).toBe('Your password for app.example.test was changed');
    await expect(service.resetPassword(token, NEW_PASSWORD), 'a second use').rejects.toMatchObject({ status: 400, message: INVALID_ACCOUNT_LINK_MESSAGE });
  });

  it('a newer request supersedes the older link', async () => {
    const { service, mailsTo } = await accountFixture();
    await service.signUp('ada@example.test', PASSWORD);
    await service.requestPasswordReset('ada@example.test');
    await service.requestPasswordReset('ada@example.test');
    const [, older, newer] = await mailsTo('ada@example.test');
    await expect(service.resetPassword(tokenOf(older), NEW_PASSWORD)).rejects.toMatchObject({ status: 400 });
    await expect(service.resetPassword(tokenOf(newer), NEW_PASSWORD)).resolves.toBeUndefined();
  });

  it('refuses a reset link after its hour', async () => {
    const { service, clock, mailsTo } = await accountFixture();
    await service.signUp('ada@example.test', PASSWORD);
    await service.requestPasswordReset('ada@example.test');
    const token = tokenOf((await mailsTo('ada@example.test'))[1]);
    clock.advance(3_600_000);
    await expect(service.resetPassword(token, NEW_PASSWORD)).rejects.toMatchObject({ status: 400, message: INVALID_ACCOUNT_LINK_MESSAGE });
  });

  it('a verification token cannot reset a password, nor a reset token verify', async () => {
    const { service, mailsTo } = await accountFixture();
    await service.signUp('ada@example.test', PASSWORD);
    await service.requestPasswordReset('ada@example.test');
    const [verify, reset] = await mailsTo('ada@example.test');
    await expect(service.resetPassword(tokenOf(verify), NEW_PASSWORD)).rejects.toMatchObject({ status: 400 });
    await expect(service.verifyEmail(tokenOf(reset))).rejects.toMatchObject({ status: 400 });
    await expect(service.verifyEmail(tokenOf(verify)), 'each still works for its own purpose').resolves.toBeUndefined();
    await expect(service.resetPassword(tokenOf(reset), NEW_PASSWORD)).resolves.toBeUndefined();
  });

  it('a password the policy refuses keeps the token usable', async () => {
    const { service, mailsTo } = await accountFixture();
    await service.signUp('ada@example.test', PASSWORD);
    await service.requestPasswordReset('ada@example.test');
    const token = tokenOf((await mailsTo('ada@example.test'))[1]);
    await expect(service.resetPassword(token, 'short')).rejects.toMatchObject({ status: 400, details: { field: 'password' } });
    await expect(service.resetPassword(token, NEW_PASSWORD)).resolves.toBeUndefined();
  });
});

describe('AccountService password change', () => {
  it('needs the current password (403 otherwise) and ends the other sessions, keeping the caller', async () => {
    const { service, store, hasher, sessionCalls } = await accountFixture();
    await service.signUp('ada@example.test', PASSWORD);
    const subject = (await store.findByEmail('ada@example.test'))?.subject ?? '';
    await expect(service.changePassword({ subject, sessionId: 's1', currentPassword: 'wrong password!', newPassword: NEW_PASSWORD })).rejects.toMatchObject({ status: 403 });
    expect(sessionCalls, 'nothing ended after a wrong current password').toEqual([]);
    await service.changePassword({ subject, sessionId: 's1', currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(await hasher.verify(NEW_PASSWORD, (await store.findBySubject(subject))?.passwordHash ?? '')).toBe(true);
    expect(sessionCalls).toEqual([`endOthers ${subject} keep s1`]);
  });

  it('makes pending reset links unusable', async () => {
    const { service, store, mailsTo } = await accountFixture();
    await service.signUp('ada@example.test', PASSWORD);
    await service.requestPasswordReset('ada@example.test');
    const token = tokenOf((await mailsTo('ada@example.test'))[1]);
    const subject = (await store.findByEmail('ada@example.test'))?.subject ?? '';
    await service.changePassword({ subject, sessionId: 's1', currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    await expect(service.resetPassword(token, 'yet another password')).rejects.toMatchObject({ status: 400 });
  });
});

describe('AccountService e-mail change', () => {
  async function signedUp() {
    const fixture = await accountFixture();
    await fixture.service.signUp('ada@example.test', PASSWORD);
    const subject = (await fixture.store.findByEmail('ada@example.test'))?.subject ?? '';
    return { ...fixture, subject };
  }

  it('mails the new address; following the link moves the account there and tells the old address', async () => {
    const { service, store, subject, mailsTo } = await signedUp();
    await service.requestEmailChange({ subject, currentPassword: PASSWORD, newEmail: 'Ada@New.TEST' });
    const [confirm] = await mailsTo('ada@new.test');
    expect(confirm?.text).toMatch(/\/confirm-email-change\?token=/);
    expect((await store.findBySubject(subject))?.email, 'nothing changes before the link is followed').toBe('ada@example.test');
    await service.confirmEmailChange(tokenOf(confirm));
    expect(await store.findBySubject(subject)).toMatchObject({ email: 'ada@new.test', emailVerified: true });
    expect((await mailsTo('ada@example.test')).at(-1)?.text).toContain('ada@new.test');
  });

  it('needs the current password', async () => {
    const { service, subject, mailsTo } = await signedUp();
    await expect(service.requestEmailChange({ subject, currentPassword: 'not the password', newEmail: 'ada@new.test' })).rejects.toMatchObject({ status: 403 });
    expect(await mailsTo('ada@new.test')).toEqual([]);
  });

  it("answers the same for an address another account has, and mails nothing there", async () => {
    const { service, subject, mailsTo } = await signedUp();
    await service.signUp('bob@example.test', PASSWORD);
    await expect(service.requestEmailChange({ subject, currentPassword: PASSWORD, newEmail: 'bob@example.test' })).resolves.toBeUndefined();
    expect((await mailsTo('bob@example.test')).length, 'only bob\'s own verification mail').toBe(1);
  });

  it('refuses the link when the address was taken in the meantime', async () => {
    const { service, subject, mailsTo } = await signedUp();
    await service.requestEmailChange({ subject, currentPassword: PASSWORD, newEmail: 'ada@new.test' });
    const token = tokenOf((await mailsTo('ada@new.test'))[0]);
    await service.signUp('ada@new.test', PASSWORD);
    await expect(service.confirmEmailChange(token)).rejects.toMatchObject({ status: 400, message: INVALID_ACCOUNT_LINK_MESSAGE });
  });

  it('a verification link sent to the old address no longer verifies anything', async () => {
    const { service, subject, mailsTo } = await signedUp();
    const verifyOld = tokenOf((await mailsTo('ada@example.test'))[0]);
    await service.requestEmailChange({ subject, currentPassword: PASSWORD, newEmail: 'ada@new.test' });
    await service.confirmEmailChange(tokenOf((await mailsTo('ada@new.test'))[0]));
    await expect(service.verifyEmail(verifyOld)).rejects.toMatchObject({ status: 400, message: INVALID_ACCOUNT_LINK_MESSAGE });
  });
});

describe('AccountService mail limit', () => {
  it('sends at most 5 mails anyone can cause per address per hour, writing no token for the rest, and answers the same', async () => {
    const { service, clock, mailsTo } = await accountFixture();
    await service.signUp('ada@example.test', PASSWORD);
    for (let i = 0; i < 6; i++) await expect(service.requestPasswordReset('ada@example.test')).resolves.toBeUndefined();
    const mails = await mailsTo('ada@example.test');
    expect(mails.length, 'one verification and four resets, then nothing').toBe(5);
    await expect(service.resetPassword(tokenOf(mails.at(-1)), NEW_PASSWORD), 'the last mailed link was not superseded by an unsent one').resolves.toBeUndefined();
    expect((await mailsTo('ada@example.test')).at(-1)?.subject, 'the password-changed notice is not limited').toMatch(/Your password for .* was changed/);
    clock.advance(3_600_000);
    await service.requestPasswordReset('ada@example.test');
    expect((await mailsTo('ada@example.test')).at(-1)?.text, 'an hour later the limit has reset').toMatch(/reset-password\?token=/);
  });

  it('counts on the counter given as mailLimit', async () => {
    const keys: string[] = [];
    const { service, mailsTo } = await accountFixture({ mailLimit: { hit: async (key) => (keys.push(key), 1_000) } });
    await service.signUp('ada@example.test', PASSWORD);
    expect(await mailsTo('ada@example.test'), 'a counter over its limit stops the mail').toEqual([]);
    expect(keys, 'keyed by the SHA-256 of the address, never the address').toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)]);
  });
});
