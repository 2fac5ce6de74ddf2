import type { IdentityStore, LinkedIdentity } from '../federation/identity-store.js';
import { createQueryRunner } from '../../postgres/index.js';
import type { PostgresStoreOptions, QueryRunner, SqlClient } from '../../postgres/index.js';
import { readTimestamp, requireValidDate, toTimestampParam } from './row-values.js';

interface IdentityRow {
  readonly issuer: string;
  readonly subject: string;
  readonly account_id: string;
  readonly provider: string;
  readonly email: string | null;
  readonly linked_at: unknown;
}

const COLUMNS = 'issuer, subject, account_id, provider, email, linked_at';

function toIdentity(row: IdentityRow): LinkedIdentity {
  return { issuer: row.issuer, subject: row.subject, accountId: row.account_id, provider: row.provider, email: row.email ?? undefined, linkedAt: readTimestamp(row.linked_at) ?? new Date(0) };
}

/**
 * An {@link IdentityStore} on the `tessera_identities` table (see `migrate`, version 6): one row
 * per (issuer, subject), its primary key, so `link` is one `INSERT ... ON CONFLICT DO NOTHING`
 * and two instances racing to link one identity leave exactly one link.
 *
 * Database failures throw a `StoreUnavailableError` (503).
 *
 * @example
 * outsideSignIn: { identityStore: defineProvider(PostgresIdentityStore, [SQL_CLIENT]), imports: [DatabaseModule], ... }
 */
export class PostgresIdentityStore implements IdentityStore {
  readonly #run: QueryRunner;

  constructor(client: SqlClient, options: PostgresStoreOptions = {}) {
    this.#run = createQueryRunner(client, 'identity', options, () => new Error('This identity is already linked'));
  }

  async find(issuer: string, subject: string): Promise<LinkedIdentity | undefined> {
    const rows = await this.#run<IdentityRow>('find', `SELECT ${COLUMNS} FROM tessera_identities WHERE issuer = $1 AND subject = $2`, [issuer, subject]);
    return rows[0] === undefined ? undefined : toIdentity(rows[0]);
  }

  async link(identity: LinkedIdentity): Promise<boolean> {
    const rows = await this.#run(
      'link',
      `INSERT INTO tessera_identities (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING 1 AS linked`,
      [identity.issuer, identity.subject, identity.accountId, identity.provider, identity.email ?? null, toTimestampParam(requireValidDate(identity.linkedAt, 'linkedAt'))],
      'write',
    );
    return rows.length === 1;
  }

  async unlink(accountId: string, issuer: string, subject: string): Promise<boolean> {
    const rows = await this.#run('unlink', 'DELETE FROM tessera_identities WHERE issuer = $1 AND subject = $2 AND account_id = $3 RETURNING 1 AS unlinked', [issuer, subject, accountId], 'write');
    return rows.length === 1;
  }

  async listByAccount(accountId: string): Promise<readonly LinkedIdentity[]> {
    const rows = await this.#run<IdentityRow>('listByAccount', `SELECT ${COLUMNS} FROM tessera_identities WHERE account_id = $1 ORDER BY linked_at, issuer, subject`, [accountId]);
    return rows.map(toIdentity);
  }
}
