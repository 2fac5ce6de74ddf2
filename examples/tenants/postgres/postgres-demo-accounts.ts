import type { OnModuleInit } from '../../../lib/index.js';
import { hashPassword } from '../../../lib/auth/index.js';
import { PostgresAccountStore } from '../../../lib/auth/postgres/index.js';
import type { Claims } from '../claims.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../demo-accounts.js';

/**
 * The tenants app's accounts in PostgreSQL (`tessera_accounts` and `tessera_account_tokens`):
 * sign-in, sign-up, verification and reset, with the demo accounts seeded at start idempotently:
 * an account that exists is left as it is (and not re-hashed), and instances starting together
 * cannot insert one twice (`createAccount` answers false for a taken address).
 *
 * @example
 * defineFactory(ACCOUNTS, [SQL_CLIENT], (db) => new PostgresDemoAccounts(db));
 */
export class PostgresDemoAccounts extends PostgresAccountStore<Claims> implements OnModuleInit {
  async onModuleInit(): Promise<void> {
    for (const account of DEMO_ACCOUNTS) {
      if ((await this.findByEmail(account.identifier)) != null) continue;
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
