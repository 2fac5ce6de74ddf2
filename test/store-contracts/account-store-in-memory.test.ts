// The AccountStore contract against the in-memory store. The same suite runs against the
// PostgreSQL store in account-store-postgres.test.ts.
import { InMemoryAccountStore } from '../../lib/auth/accounts/index.js';
import { describeAccountStoreContract } from './account-store-contract.js';
import type { ContractClaims } from './contract-fixtures.js';

describeAccountStoreContract('in-memory', async () => {
  const store = new InMemoryAccountStore<ContractClaims>();
  return { store, disable: (subject) => store.disable(subject) };
});
