// The default password policy refuses common passwords (ASVS 5.0 6.2.4 L1, 6.2.12): issue 48
// reproduced `123456789012` and `passwordpassword` being accepted at sign-up.
import { describe, expect, it } from 'vitest';
import { isCommonPassword, loadCommonPasswords } from './common-passwords.js';
import { resolvePasswordPolicy } from './password-policy.js';

describe('the common-password list', () => {
  it('holds at least the 10,000 most common passwords', async () => {
    const list = await loadCommonPasswords();
    expect(list.size, 'the list shrank below what ASVS 6.2.4 asks for').toBeGreaterThanOrEqual(10_000);
  });

  it('is loaded once and shared by every caller', async () => {
    expect(await loadCommonPasswords(), 'a second load built a second Set').toBe(await loadCommonPasswords());
  });

  it.each(['123456789012', 'passwordpassword', 'PassWordPassWord', 'ＰＡＳＳＷＯＲＤＰＡＳＳＷＯＲＤ'])('finds %j, case- and width-folded', async (password) => {
    expect(await isCommonPassword(password), `${password} was not recognised as common`).toBe(true);
  });

  it('does not find a passphrase of four random words', async () => {
    expect(await isCommonPassword('correct horse battery staple'), 'an uncommon passphrase was called common').toBe(false);
  });
});

describe('resolvePasswordPolicy: common passwords', () => {
  it.each(['123456789012', 'passwordpassword', 'QWERTY123456'])('refuses %j by default with a 400 naming the rule', async (password) => {
    await expect(resolvePasswordPolicy().enforce(password), 'a common password passed the default policy').rejects.toMatchObject({
      status: 400,
      message: 'The password is too common: it is on a list of the most used passwords',
      details: { field: 'password', commonPassword: true },
    });
  });

  it('checks the length first: a short common password is refused for its length', async () => {
    await expect(resolvePasswordPolicy().enforce('password'), 'the common rule answered before the length rule').rejects.toMatchObject({ status: 400, details: { field: 'password', minLength: 12 } });
  });

  it('accepts an uncommon password of the right length', async () => {
    await expect(resolvePasswordPolicy().enforce('correct horse battery staple'), 'an uncommon password was refused').resolves.toBeUndefined();
  });

  it('with refuseCommon: false, leaves common passwords to the app', async () => {
    await expect(resolvePasswordPolicy({ refuseCommon: false }).enforce('passwordpassword'), 'refuseCommon: false still refused').resolves.toBeUndefined();
  });

  it("runs the app's check after the common-password rule", async () => {
    const seen: string[] = [];
    const policy = resolvePasswordPolicy({ check: (pw) => (seen.push(pw), undefined) });
    await expect(policy.enforce('passwordpassword')).rejects.toMatchObject({ details: { commonPassword: true } });
    expect(seen, 'the check ran on a password the list had already refused').toEqual([]);
  });
});
