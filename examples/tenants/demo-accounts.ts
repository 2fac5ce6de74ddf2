import type { OnModuleInit } from '../../lib/index.js';
import { hashPassword, InMemoryAccountStore } from '../../lib/auth/index.js';
import type { Claims } from './claims.js';

/** The password of every demo account. */
export const DEMO_PASSWORD = 'tessera-demo-password';

/** The seeded demo accounts (see the README of this example). */
export const DEMO_ACCOUNTS: readonly { identifier: string; claims: Claims }[] = [
  { identifier: 'alice@acme.test', claims: { sub: 'alice', roles: ['owner', 'member'], tenantId: 'acme' } },
  { identifier: 'bob@acme.test', claims: { sub: 'bob', roles: ['member'], tenantId: 'acme' } },
  { identifier: 'carol@globex.test', claims: { sub: 'carol', roles: ['owner', 'member'], tenantId: 'globex' } },
];

/**
 * The claims of an account made by sign-up: the owner of a tenant of their own, named by their
 * subject (a random UUID), so a new person starts with an empty blog nobody else sees.
 *
 * @example
 * newAccountClaims({ subject: '0193...', email: 'dora@example.test' }); // { sub: '0193...', roles: ['owner', 'member'], tenantId: '0193...' }
 */
export function newAccountClaims(account: { readonly subject: string }): Claims {
  return { sub: account.subject, roles: ['owner', 'member'], tenantId: account.subject };
}

/**
 * The in-memory account store (sign-in, sign-up, verification, reset), seeded at start with the
 * demo accounts, their addresses verified (hashing takes a few ms per account).
 */
export class DemoAccounts extends InMemoryAccountStore<Claims> implements OnModuleInit {
  async onModuleInit(): Promise<void> {
    for (const account of DEMO_ACCOUNTS) {
      await this.createAccount({
        email: account.identifier,
        subject: account.claims.sub,
        passwordHash: await hashPassword(DEMO_PASSWORD),
        claims: account.claims,
        emailVerified: true,
      });
    }
  }
}
