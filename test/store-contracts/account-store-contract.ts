import { describe, expect, it } from 'vitest';
import { replacesPasswordHashes } from '../../lib/auth/sessions/issuing/credential-store.js';
import type { AccountStore, NewAccount, NewAccountToken } from '../../lib/auth/accounts/index.js';
import { ContractClaims, randomHash, T0, uniqueId } from './contract-fixtures.js';
import type { MaybePromise } from './contract-fixtures.js';

/** An account store under test plus the management operation the contract drives. */
export interface AccountStoreHandle {
  readonly store: AccountStore<ContractClaims>;
  disable(subject: string): MaybePromise<void>;
}

/**
 * The AccountStore contract (lib/auth/accounts/account-store.ts) for any implementation.
 *
 * @example
 * describeAccountStoreContract('in-memory', async () => ({ store, disable: (s) => store.disable(s) }));
 */
export function describeAccountStoreContract(name: string, make: () => Promise<AccountStoreHandle>): void {
  const account = (overrides: Partial<NewAccount<ContractClaims>> = {}): NewAccount<ContractClaims> => {
    const subject = uniqueId('acct');
    return { subject, email: `${subject}@example.test`, passwordHash: `$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$${subject}`, claims: { sub: subject, roles: ['member'] }, emailVerified: false, ...overrides };
  };
  const token = (subject: string, email: string, overrides: Partial<NewAccountToken> = {}): NewAccountToken => ({
    tokenHash: randomHash(),
    subject,
    purpose: 'verify-email',
    email,
    expiresAt: new Date(T0 + 3_600_000),
    ...overrides,
  });

  describe(`AccountStore contract: ${name}`, () => {
    it('creates an account and finds it by e-mail (trimmed, any case) and by subject', async () => {
      const { store } = await make();
      const a = account();
      expect(await store.createAccount(a), 'a new address is created').toBe(true);
      const expected = { subject: a.subject, email: a.email, passwordHash: a.passwordHash, emailVerified: false, disabled: false, claims: a.claims };
      expect(await store.findByEmail(` ${a.email.toUpperCase()} `)).toEqual(expected);
      expect(await store.findBySubject(a.subject)).toEqual(expected);
      expect(await store.findByEmail(`nobody-${a.email}`), 'an unknown address').toBeFalsy();
      expect(await store.findBySubject(uniqueId('ghost')), 'an unknown subject').toBeFalsy();
    });

    it('answers false, changing nothing, for a taken e-mail (any case) or subject', async () => {
      const { store } = await make();
      const a = account();
      await store.createAccount(a);
      expect(await store.createAccount(account({ email: a.email.toUpperCase() })), 'same address').toBe(false);
      expect(await store.createAccount(account({ subject: a.subject })), 'same subject').toBe(false);
      expect((await store.findByEmail(a.email))?.passwordHash, 'the first account is untouched').toBe(a.passwordHash);
    });

    it('is a CredentialStore: sign-in finds the account by its e-mail and loads its claims unless disabled', async () => {
      const { store, disable } = await make();
      const a = account();
      await store.createAccount(a);
      expect(await store.findByIdentifier(` ${a.email.toUpperCase()}`)).toEqual({ subject: a.subject, passwordHash: a.passwordHash });
      expect(await store.loadClaims(a.subject)).toEqual(a.claims);
      await disable(a.subject);
      expect(await store.findByIdentifier(a.email), 'a disabled account is still found').toEqual({ subject: a.subject, passwordHash: a.passwordHash });
      expect(await store.loadClaims(a.subject), 'a disabled account loads no claims').toBeFalsy();
      expect((await store.findBySubject(a.subject))?.disabled).toBe(true);
    });

    it('marks the address verified only while the account still has it', async () => {
      const { store } = await make();
      const a = account();
      await store.createAccount(a);
      expect(await store.markEmailVerified(a.subject, `other-${a.email}`), 'another address').toBe(false);
      expect((await store.findBySubject(a.subject))?.emailVerified).toBe(false);
      expect(await store.markEmailVerified(a.subject, a.email)).toBe(true);
      expect((await store.findBySubject(a.subject))?.emailVerified).toBe(true);
      expect(await store.markEmailVerified(uniqueId('ghost'), a.email), 'an unknown subject').toBe(false);
    });

    it('replaces the password hash, and sign-in reads the new one', async () => {
      const { store } = await make();
      const a = account();
      await store.createAccount(a);
      await store.setPasswordHash(a.subject, '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$new');
      expect((await store.findByIdentifier(a.email))?.passwordHash).toBe('$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$new');
    });

    it('replaces the password hash only while it is still the one read (the rehash at sign-in)', async () => {
      const { store } = await make();
      const a = account();
      await store.createAccount(a);
      if (!replacesPasswordHashes(store)) throw new Error('the reference stores rehash: replacePasswordHash is missing');
      await store.setPasswordHash(a.subject, 'changed-meanwhile');
      expect(await store.replacePasswordHash(a.subject, a.passwordHash, 'rehashed-old-password'), 'a password changed meanwhile').toBe(false);
      expect((await store.findByIdentifier(a.email))?.passwordHash, 'the change stands').toBe('changed-meanwhile');
      expect(await store.replacePasswordHash(a.subject, 'changed-meanwhile', 'rehashed'), 'the stored hash').toBe(true);
      expect((await store.findByIdentifier(a.email))?.passwordHash).toBe('rehashed');
    });

    it('changes the e-mail (verified) from the current address to a free one; the old address is free afterwards', async () => {
      const { store } = await make();
      const a = account();
      await store.createAccount(a);
      const next = `${uniqueId('new')}@example.test`;
      expect(await store.changeEmail(a.subject, `stale-${a.email}`, next), 'from an address it no longer has').toBe(false);
      expect(await store.changeEmail(a.subject, a.email, next)).toBe(true);
      expect(await store.findByEmail(next)).toMatchObject({ subject: a.subject, email: next, emailVerified: true });
      expect(await store.findByEmail(a.email), 'the old address finds nothing').toBeFalsy();
      expect(await store.findByIdentifier(next), 'sign-in uses the new address').toMatchObject({ subject: a.subject });
      expect(await store.createAccount(account({ email: a.email })), 'the old address can be taken again').toBe(true);
    });

    it('refuses to change the e-mail to an address another account has', async () => {
      const { store } = await make();
      const [a, b] = [account(), account()];
      await store.createAccount(a);
      await store.createAccount(b);
      expect(await store.changeEmail(a.subject, a.email, b.email.toUpperCase())).toBe(false);
      expect((await store.findBySubject(a.subject))?.email, 'nothing changed').toBe(a.email);
    });

    it('consumes a token once, for its own purpose only', async () => {
      const { store } = await make();
      const a = account();
      await store.createAccount(a);
      const t = token(a.subject, a.email, { purpose: 'reset-password' });
      await store.issueToken(t);
      expect(await store.consumeToken(t.tokenHash, 'verify-email'), 'another purpose').toBeFalsy();
      expect(await store.consumeToken(t.tokenHash, 'reset-password')).toEqual({ subject: a.subject, email: a.email, expiresAt: t.expiresAt });
      expect(await store.consumeToken(t.tokenHash, 'reset-password'), 'a second use').toBeFalsy();
      expect(await store.consumeToken(randomHash(), 'reset-password'), 'an unknown hash').toBeFalsy();
    });

    it('hands a token to exactly one of many concurrent consumers', async () => {
      const { store } = await make();
      const a = account();
      await store.createAccount(a);
      const t = token(a.subject, a.email);
      await store.issueToken(t);
      const results = await Promise.all(Array.from({ length: 20 }, async () => store.consumeToken(t.tokenHash, 'verify-email')));
      expect(results.filter(Boolean).length, 'winners among 20 concurrent consumers').toBe(1);
    });

    it('a new token supersedes the older ones of the same purpose and account, and no others', async () => {
      const { store } = await make();
      const [a, b] = [account(), account()];
      await store.createAccount(a);
      await store.createAccount(b);
      const older = token(a.subject, a.email, { purpose: 'reset-password' });
      const verify = token(a.subject, a.email, { purpose: 'verify-email' });
      const othersReset = token(b.subject, b.email, { purpose: 'reset-password' });
      for (const t of [older, verify, othersReset]) await store.issueToken(t);
      const newer = token(a.subject, a.email, { purpose: 'reset-password' });
      await store.issueToken(newer);
      expect(await store.consumeToken(older.tokenHash, 'reset-password'), 'the superseded token').toBeFalsy();
      expect(await store.consumeToken(newer.tokenHash, 'reset-password'), 'the newest token').toBeTruthy();
      expect(await store.consumeToken(verify.tokenHash, 'verify-email'), 'a token of another purpose').toBeTruthy();
      expect(await store.consumeToken(othersReset.tokenHash, 'reset-password'), "another account's token").toBeTruthy();
    });

    it('deleteTokens removes the tokens of one purpose of one account', async () => {
      const { store } = await make();
      const a = account();
      await store.createAccount(a);
      const reset = token(a.subject, a.email, { purpose: 'reset-password' });
      const change = token(a.subject, `x-${a.email}`, { purpose: 'change-email' });
      await store.issueToken(reset);
      await store.issueToken(change);
      await store.deleteTokens(a.subject, 'reset-password');
      expect(await store.consumeToken(reset.tokenHash, 'reset-password')).toBeFalsy();
      expect(await store.consumeToken(change.tokenHash, 'change-email')).toMatchObject({ email: `x-${a.email}` });
    });

    it('hands out claims the caller cannot use to change the stored ones', async () => {
      const { store } = await make();
      const a = account();
      await store.createAccount(a);
      (await store.findBySubject(a.subject))?.claims.roles.push('admin');
      (await store.loadClaims(a.subject))?.roles.push('admin');
      expect(await store.loadClaims(a.subject)).toEqual(a.claims);
    });
  });
}
