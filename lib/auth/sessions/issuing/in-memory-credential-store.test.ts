import { describe, expect, it } from 'vitest';
import { InMemoryCredentialStore } from './in-memory-credential-store.js';

interface Claims {
  sub: string;
  roles: string[];
}
const alice = { identifier: 'Alice@Acme.test', subject: 'u1', passwordHash: 'phc-1', claims: { sub: 'u1', roles: ['owner'] } };

describe('InMemoryCredentialStore', () => {
  it('finds accounts by identifier, trimmed and case-insensitive', async () => {
    const store = new InMemoryCredentialStore<Claims>([alice]);
    for (const identifier of ['alice@acme.test', '  ALICE@ACME.TEST\t', 'Alice@Acme.test']) {
      expect(await store.findByIdentifier(identifier)).toEqual({ subject: 'u1', passwordHash: 'phc-1' });
    }
    expect(await store.findByIdentifier('bob@acme.test')).toBeUndefined();
    expect(await store.findByIdentifier('alice@acme.tes')).toBeUndefined();
  });

  it('loads a copy of the claims; mutating it changes nothing stored', async () => {
    const store = new InMemoryCredentialStore<Claims>([alice]);
    const claims = await store.loadClaims('u1');
    claims?.roles.push('admin');
    expect(await store.loadClaims('u1')).toEqual({ sub: 'u1', roles: ['owner'] });
    expect(await store.loadClaims('u2')).toBeUndefined();
  });

  it('setClaims replaces claims; disable hides them but keeps the account findable; enable restores', async () => {
    const store = new InMemoryCredentialStore<Claims>();
    store.addAccount(alice);
    store.setClaims('u1', { sub: 'u1', roles: [] });
    expect(await store.loadClaims('u1')).toEqual({ sub: 'u1', roles: [] });
    store.disable('u1');
    expect(await store.loadClaims('u1')).toBeUndefined();
    expect(await store.findByIdentifier('alice@acme.test')).toBeDefined();
    store.enable('u1');
    expect(await store.loadClaims('u1')).toEqual({ sub: 'u1', roles: [] });
  });

  it('accounts can start disabled', async () => {
    const store = new InMemoryCredentialStore<Claims>([{ ...alice, disabled: true }]);
    expect(await store.loadClaims('u1')).toBeUndefined();
  });

  it('refuses duplicate identifiers (after normalization) and subjects, and unknown subjects in helpers', () => {
    const store = new InMemoryCredentialStore<Claims>([alice]);
    expect(() => store.addAccount({ ...alice, subject: 'u2', identifier: ' alice@ACME.test' })).toThrow(/identifier/);
    expect(() => store.addAccount({ ...alice, identifier: 'other@acme.test' })).toThrow(/subject/);
    expect(() => store.disable('nobody')).toThrow();
    expect(() => store.setClaims('nobody', alice.claims)).toThrow();
  });

  it('can be built by the DI container (no required constructor parameters)', () => {
    expect(InMemoryCredentialStore.length).toBe(0);
  });
});
