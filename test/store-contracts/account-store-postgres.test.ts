// The AccountStore contract against PostgresAccountStore on PGlite (in process) and, with
// TEST_DATABASE_URL, on a real server (20 connections, so the concurrent consumers really race).
// Plus what only the PostgreSQL store has: the table it shares with PostgresCredentialStore,
// and purgeExpiredTokens.
import { describe, expect, it } from 'vitest';
import { PostgresAccountStore, PostgresCredentialStore } from '../../lib/auth/postgres/index.js';
import { useMigratedPGlite } from '../postgres/support/pglite.js';
import { TEST_DATABASE_URL, useMigratedTestDatabase } from '../postgres/support/test-database.js';
import { describeAccountStoreContract } from './account-store-contract.js';
import { ContractClaims, randomHash, T0, uniqueId } from './contract-fixtures.js';

const lite = useMigratedPGlite();

describeAccountStoreContract('postgres on PGlite', async () => {
  const store = new PostgresAccountStore<ContractClaims>(lite.db);
  return { store, disable: (subject) => store.disable(subject) };
});

describe.skipIf(TEST_DATABASE_URL === undefined)('real PostgreSQL server (TEST_DATABASE_URL)', () => {
  const db = useMigratedTestDatabase(20);
  describeAccountStoreContract('postgres server', async () => {
    const store = new PostgresAccountStore<ContractClaims>(db.pool);
    return { store, disable: (subject) => store.disable(subject) };
  });
});

describe('PostgresAccountStore and PostgresCredentialStore share tessera_accounts (PGlite)', () => {
  it('an account created by sign-up is found by the credential store, and a seeded one counts as verified', async () => {
    const accounts = new PostgresAccountStore<ContractClaims>(lite.db);
    const credentials = new PostgresCredentialStore<ContractClaims>(lite.db);
    const signedUp = uniqueId('signup');
    await accounts.createAccount({ subject: signedUp, email: `${signedUp}@Example.test`, passwordHash: 'h1', claims: { sub: signedUp, roles: [] }, emailVerified: false });
    expect(await credentials.findByIdentifier(`${signedUp}@example.test`)).toEqual({ subject: signedUp, passwordHash: 'h1' });
    const seeded = uniqueId('seed');
    await credentials.addAccount({ identifier: `${seeded}@example.test`, subject: seeded, passwordHash: 'h2', claims: { sub: seeded, roles: [] } });
    expect((await accounts.findBySubject(seeded))?.emailVerified, 'an account added outside sign-up').toBe(true);
    expect((await accounts.findBySubject(signedUp))?.emailVerified, 'an account from sign-up').toBe(false);
  });
});

describe('PostgresAccountStore.purgeExpiredTokens (PGlite)', () => {
  it('deletes only tokens that expired before the given moment', async () => {
    const store = new PostgresAccountStore<ContractClaims>(lite.db);
    const subject = uniqueId('purge');
    await store.createAccount({ subject, email: `${subject}@example.test`, passwordHash: 'h', claims: { sub: subject, roles: [] }, emailVerified: false });
    const [old, fresh] = [randomHash(), randomHash()];
    await store.issueToken({ tokenHash: old, subject, purpose: 'verify-email', email: `${subject}@example.test`, expiresAt: new Date(T0 - 86_400_000 * 400) });
    await store.issueToken({ tokenHash: fresh, subject, purpose: 'change-email', email: `new-${subject}@example.test`, expiresAt: new Date(T0 + 60_000) });
    expect(await store.purgeExpiredTokens(new Date(T0 - 86_400_000 * 300))).toBeGreaterThanOrEqual(1);
    expect(await store.consumeToken(old, 'verify-email'), 'the expired token is gone').toBeUndefined();
    expect(await store.consumeToken(fresh, 'change-email'), 'the live token stays').toBeDefined();
  });
});
