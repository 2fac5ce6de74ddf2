import type { OnModuleInit } from '../../lib/index.js';
import { hashPassword } from '../../lib/auth/index.js';
import { InMemoryCredentialStore } from '../../lib/auth/index.js';
import type { Claims } from './claims.js';

/** The password of every demo account. */
export const DEMO_PASSWORD = 'tessera-demo-password';

/** The seeded demo accounts (see the README of this example). */
export const DEMO_ACCOUNTS: readonly { identifier: string; claims: Claims }[] = [
  { identifier: 'alice@acme.test', claims: { sub: 'alice', roles: ['owner', 'member'], tenantId: 'acme' } },
  { identifier: 'bob@acme.test', claims: { sub: 'bob', roles: ['member'], tenantId: 'acme' } },
  { identifier: 'carol@globex.test', claims: { sub: 'carol', roles: ['owner', 'member'], tenantId: 'globex' } },
];

/** The in-memory account store, seeded at start (hashing takes a few ms per account). */
export class DemoAccounts extends InMemoryCredentialStore<Claims> implements OnModuleInit {
  async onModuleInit(): Promise<void> {
    for (const account of DEMO_ACCOUNTS) {
      this.addAccount({
        identifier: account.identifier,
        subject: account.claims.sub,
        passwordHash: await hashPassword(DEMO_PASSWORD),
        claims: account.claims,
      });
    }
  }
}
