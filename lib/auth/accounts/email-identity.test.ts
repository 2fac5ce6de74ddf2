// Issue 48: one address, one account, one throttle budget. Before, accounts folded case only and
// the sign-in throttle also folded width (NFKC): fullwidth `ｖｉｃｔｉｍ@` became a second account
// that guessed on the first one's budget, and `x\uD800@` was stored as `x\uFFFD@`.
import { describe, expect, it } from 'vitest';
import { accountFixture } from './account-service.test-helper.js';

const PASSWORD = 'correct horse battery';

describe('AccountService: one normalisation of an address', () => {
  it('treats a fullwidth spelling of a taken address as taken: no second account, a notice to the owner', async () => {
    const { service, store, mailsTo } = await accountFixture();
    await service.signUp('victim@example.test', PASSWORD);
    await service.signUp('ｖｉｃｔｉｍ@example.test', PASSWORD);
    await service.settled();
    expect((await store.findByEmail('ｖｉｃｔｉｍ@example.test'))?.email, 'the fullwidth spelling is not the same account').toBe('victim@example.test');
    const subjects = new Set([(await store.findByEmail('victim@example.test'))?.subject, (await store.findByEmail('ｖｉｃｔｉｍ@example.test'))?.subject]);
    expect(subjects.size, 'two accounts for one address').toBe(1);
    expect((await mailsTo('victim@example.test')).length, 'the owner got a verification and a sign-up notice').toBe(2);
  });

  it.each([
    ['a zero-width space', 'vic\u200Btim@example.test'],
    ['a right-to-left override', 'x\u202E@example.test'],
    ['an unpaired surrogate', 'x\uD800@example.test'],
  ])('refuses %s at sign-up with a 400, storing nothing', async (_, address) => {
    const { service, hasher } = await accountFixture();
    await expect(service.signUp(address, PASSWORD), `${JSON.stringify(address)} was accepted`).rejects.toMatchObject({ status: 400, details: { field: 'email' } });
    expect(hasher.calls.hash, 'the refused address reached hashing (and the store)').toBe(0);
  });
});
