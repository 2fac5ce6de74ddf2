import { describe, expect, it } from 'vitest';
import type { CredentialStore } from '../../lib/auth/sessions/issuing/index.js';
import { replacesPasswordHashes } from '../../lib/auth/sessions/issuing/credential-store.js';
import { ContractClaims, uniqueId } from './contract-fixtures.js';
import type { MaybePromise } from './contract-fixtures.js';

/** An account to seed, in the shape both reference stores take. */
export interface ContractAccount {
  readonly identifier: string;
  readonly subject: string;
  readonly passwordHash: string;
  readonly claims: ContractClaims;
  readonly disabled?: boolean;
}

/** A credential store under test plus the management operations the contract drives. */
export interface CredentialStoreHandle {
  readonly store: CredentialStore<ContractClaims>;
  addAccount(account: ContractAccount): MaybePromise<unknown>;
  disable(subject: string): MaybePromise<void>;
  enable(subject: string): MaybePromise<void>;
}

/**
 * The CredentialStore contract (SPEC "CredentialStore result shapes") for any implementation.
 *
 * @example
 * describeCredentialStoreContract('in-memory', async () => wrap(new InMemoryCredentialStore()));
 */
export function describeCredentialStoreContract(name: string, make: () => Promise<CredentialStoreHandle>): void {
  const account = (): ContractAccount => {
    const subject = uniqueId('user');
    return { identifier: `${subject}@Example.TEST`, subject, passwordHash: `$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$${subject}`, claims: { sub: subject, roles: ['member'] } };
  };

  describe(`CredentialStore contract: ${name}`, () => {
    it('finds an account by identifier, trimmed and case-insensitive; null/undefined when unknown', async () => {
      const { store, addAccount } = await make();
      const a = account();
      await addAccount(a);
      const expected = { subject: a.subject, passwordHash: a.passwordHash };
      expect(await store.findByIdentifier(a.identifier)).toEqual(expected);
      expect(await store.findByIdentifier(`  ${a.identifier.toUpperCase()} `)).toEqual(expected);
      expect(await store.findByIdentifier(`nobody-${a.identifier}`)).toBeFalsy();
    });

    it('loads the claims of a subject; null/undefined for an unknown subject', async () => {
      const { store, addAccount } = await make();
      const a = account();
      await addAccount(a);
      expect(await store.loadClaims(a.subject)).toEqual(a.claims);
      expect(await store.loadClaims(uniqueId('ghost'))).toBeFalsy();
    });

    it('a disabled account is still found (its password is verified) but cannot load claims; enable restores it', async () => {
      const { store, addAccount, disable, enable } = await make();
      const a = account();
      await addAccount(a);
      await disable(a.subject);
      expect(await store.findByIdentifier(a.identifier)).toEqual({ subject: a.subject, passwordHash: a.passwordHash });
      expect(await store.loadClaims(a.subject)).toBeFalsy();
      await enable(a.subject);
      expect(await store.loadClaims(a.subject)).toEqual(a.claims);
      const created = { ...account(), disabled: true };
      await addAccount(created);
      expect(await store.loadClaims(created.subject)).toBeFalsy();
    });

    it('replaces a password hash only while it is still the one read (a rehash at sign-in never undoes a change)', async () => {
      const { store, addAccount } = await make();
      if (!replacesPasswordHashes(store)) throw new Error('the reference stores rehash: replacePasswordHash is missing');
      const a = account();
      await addAccount(a);
      expect(await store.replacePasswordHash(a.subject, `${a.passwordHash}-other`, 'fresh-1'), 'a hash that is not the stored one').toBe(false);
      expect((await store.findByIdentifier(a.identifier))?.passwordHash, 'unchanged').toBe(a.passwordHash);
      expect(await store.replacePasswordHash(a.subject, a.passwordHash, 'fresh-2'), 'the stored hash').toBe(true);
      expect((await store.findByIdentifier(a.identifier))?.passwordHash).toBe('fresh-2');
      expect(await store.replacePasswordHash(uniqueId('ghost'), a.passwordHash, 'fresh-3'), 'an unknown subject').toBe(false);
    });

    it('refuses a second account with the same identifier (any case) or subject', async () => {
      const { addAccount } = await make();
      const a = account();
      await addAccount(a);
      await expect(async () => addAccount({ ...a, subject: uniqueId('other'), identifier: a.identifier.toUpperCase() })).rejects.toThrow(/already exists/);
      await expect(async () => addAccount({ ...a, identifier: `x-${a.identifier}` })).rejects.toThrow(/already exists/);
    });

    it('hands out claims the caller cannot use to change the stored ones', async () => {
      const { store, addAccount } = await make();
      const a = account();
      await addAccount(a);
      const loaded = await store.loadClaims(a.subject);
      loaded?.roles.push('admin');
      expect(await store.loadClaims(a.subject)).toEqual(a.claims);
    });
  });
}
