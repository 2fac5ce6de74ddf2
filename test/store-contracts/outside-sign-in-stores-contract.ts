// The contracts of the outside sign-in's two stores, run on every implementation: a flow is taken
// once (exactly one of many racing callbacks gets it), and an identity (issuer, subject) is linked
// to one account at most (exactly one of racing links wins).
import { describe, expect, it } from 'vitest';
import type { IdentityStore } from '../../lib/auth/federation/identity-store.js';
import type { SignInFlow, SignInFlowStore } from '../../lib/auth/federation/sign-in-flow-store.js';
import { randomHash, T0, uniqueId } from './contract-fixtures.js';

function flow(extra: Partial<SignInFlow> = {}): SignInFlow {
  return { provider: 'oidc', codeVerifier: randomHash().slice(0, 43), nonce: 'n-' + randomHash().slice(0, 20), bindingHash: randomHash(), returnTo: '/home', linkAccountId: undefined, replacing: undefined, expiresAt: new Date(T0 + 600_000), ...extra };
}

export function describeSignInFlowStoreContract(name: string, make: () => Promise<SignInFlowStore>): void {
  describe(`SignInFlowStore contract: ${name}`, () => {
    it('gives a saved flow back once, whole', async () => {
      const store = await make();
      const state = randomHash();
      const saved = flow({ linkAccountId: uniqueId('acct') });
      await store.save(state, saved);
      expect(await store.take(state)).toEqual(saved);
      expect(await store.take(state), 'a flow was taken twice').toBeUndefined();
    });

    it('gives back the hash of the session the browser held (replacing)', async () => {
      const store = await make();
      const state = randomHash();
      const saved = flow({ replacing: randomHash() });
      await store.save(state, saved);
      expect((await store.take(state))?.replacing, 'the held session was lost: the sign-in would not end it').toBe(saved.replacing);
    });

    it('keeps an undefined nonce, link and replacing undefined', async () => {
      const store = await make();
      const state = randomHash();
      await store.save(state, flow({ nonce: undefined }));
      const taken = await store.take(state);
      expect(taken?.nonce).toBeUndefined();
      expect(taken?.linkAccountId).toBeUndefined();
      expect(taken?.replacing).toBeUndefined();
    });

    it('answers undefined for an unknown state', async () => {
      const store = await make();
      expect(await store.take(randomHash())).toBeUndefined();
    });

    it('lets exactly one of ten racing takes have the flow', async () => {
      const store = await make();
      const state = randomHash();
      await store.save(state, flow());
      const results = await Promise.all(Array.from({ length: 10 }, () => store.take(state)));
      expect(results.filter((result) => result !== undefined).length, 'a replayed callback also got the flow').toBe(1);
    });
  });
}

export function describeIdentityStoreContract(name: string, make: () => Promise<IdentityStore>): void {
  describe(`IdentityStore contract: ${name}`, () => {
    const issuer = 'https://id.example.test';

    it('finds a link by issuer and subject together, never by subject alone', async () => {
      const store = await make();
      const subject = uniqueId('sub');
      const accountId = uniqueId('acct');
      expect(await store.link({ issuer, subject, accountId, provider: 'oidc', email: 'a@example.test', linkedAt: new Date(T0) })).toBe(true);
      expect(await store.find(issuer, subject)).toMatchObject({ issuer, subject, accountId, provider: 'oidc', email: 'a@example.test' });
      expect(await store.find('https://other.example.test', subject), 'another issuer\'s subject found the link').toBeUndefined();
    });

    it('refuses to link an identity twice, to another account or the same one', async () => {
      const store = await make();
      const subject = uniqueId('sub');
      const first = uniqueId('acct');
      await store.link({ issuer, subject, accountId: first, provider: 'oidc', linkedAt: new Date(T0) });
      expect(await store.link({ issuer, subject, accountId: uniqueId('acct'), provider: 'oidc', linkedAt: new Date(T0) })).toBe(false);
      expect((await store.find(issuer, subject))?.accountId).toBe(first);
    });

    it('lets exactly one of racing links win', async () => {
      const store = await make();
      const subject = uniqueId('sub');
      const results = await Promise.all(Array.from({ length: 8 }, () => store.link({ issuer, subject, accountId: uniqueId('acct'), provider: 'oidc', linkedAt: new Date(T0) })));
      expect(results.filter(Boolean).length).toBe(1);
    });

    it('lists an account\'s identities and unlinks only the account\'s own', async () => {
      const store = await make();
      const accountId = uniqueId('acct');
      const [a, b] = [uniqueId('sub'), uniqueId('sub')];
      await store.link({ issuer, subject: a, accountId, provider: 'oidc', linkedAt: new Date(T0) });
      await store.link({ issuer: 'https://github.com', subject: b, accountId, provider: 'github', linkedAt: new Date(T0 + 1000) });
      expect((await store.listByAccount(accountId)).map((identity) => identity.provider).sort()).toEqual(['github', 'oidc']);
      expect(await store.unlink(uniqueId('acct'), issuer, a), 'another account unlinked the identity').toBe(false);
      expect(await store.unlink(accountId, issuer, a)).toBe(true);
      expect(await store.find(issuer, a)).toBeUndefined();
      expect((await store.listByAccount(accountId)).length).toBe(1);
    });
  });
}
