// The shared store contracts, run against the in-memory reference stores (every refresh-token
// variant) and the in-memory rate-limit counter. The same suites run against the
// PostgreSQL stores in postgres-pglite.test.ts and postgres-server.test.ts.
import { InMemoryCredentialStore } from '../../lib/auth/sessions/issuing/index.js';
import { createInMemoryRefreshTokenStore } from '../../lib/auth/sessions/issuing/in-memory-store-variants.test-helper.js';
import { InMemoryApiKeyStore } from '../../lib/auth/credentials/api-keys/index.js';
import { InMemoryRateLimitCounter } from '../../lib/index.js';
import { describeApiKeyStoreContract } from './api-key-store-contract.js';
import type { ContractClaims } from './contract-fixtures.js';
import { describeCredentialStoreContract } from './credential-store-contract.js';
import { describeRateLimitCounterContract } from './rate-limit-counter-contract.js';
import { describeRefreshRaceContract } from './refresh-race-contract.js';
import { describeRefreshTokenStoreContract } from './refresh-token-store-contract.js';

describeCredentialStoreContract('in-memory', async () => {
  const store = new InMemoryCredentialStore<ContractClaims>();
  return { store, addAccount: (a) => store.addAccount(a), disable: (s) => store.disable(s), enable: (s) => store.enable(s) };
});

for (const rotate of [true, false]) {
  for (const revokeFamily of [true, false]) {
    const variant = `in-memory (rotate: ${rotate}, revokeFamily: ${revokeFamily})`;
    describeRefreshTokenStoreContract(variant, async (clock) => createInMemoryRefreshTokenStore({ rotate, revokeFamily, clock }));
    describeRefreshRaceContract(variant, 50, async (clock, callers) => {
      // One process: every caller shares the one store, as instances share one database.
      const store = createInMemoryRefreshTokenStore({ rotate, revokeFamily, clock });
      return {
        stores: Array.from({ length: callers }, () => store),
        familyTokens: async (familyId) => store.records().filter((r) => r.familyId === familyId),
      };
    });
  }
}

describeApiKeyStoreContract('in-memory', async () => {
  const store = new InMemoryApiKeyStore();
  return { store, add: (r) => store.add(r), revoke: (id, at) => store.revoke(id, at), lastUsedAt: (id) => store.lastUsedAt(id) };
});

describeRateLimitCounterContract('in-memory', async (limit, windowMs, clock) => new InMemoryRateLimitCounter({ limit, windowMs, clock }));
