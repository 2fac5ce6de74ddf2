import type { OnModuleInit } from '../../../lib/index.js';
import { hashPassword } from '../../../lib/auth/index.js';
import { PostgresCredentialStore } from '../../../lib/auth/postgres/index.js';
import type { Claims } from '../claims.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../demo-accounts.js';

/**
 * The demo accounts in PostgreSQL, seeded at start idempotently: an account that exists is left
 * as it is (and not re-hashed), and instances starting together cannot insert one twice.
 *
 * @example
 * defineFactory(CREDENTIALS, [SQL_CLIENT], (db) => new PostgresDemoAccounts(db));
 */
export class PostgresDemoAccounts extends PostgresCredentialStore<Claims> implements OnModuleInit {
  async onModuleInit(): Promise<void> {
    for (const account of DEMO_ACCOUNTS) {
      if (await this.hasIdentifier(account.identifier)) continue;
      await this.addAccountIfAbsent({
        identifier: account.identifier,
        subject: account.claims.sub,
        passwordHash: await hashPassword(DEMO_PASSWORD),
        claims: account.claims,
      });
    }
  }
}
