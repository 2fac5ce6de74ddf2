import type { RehashingCredentialStore, StoredCredential } from '../sessions/issuing/credential-store.js';
import { createQueryRunner } from '../../postgres/index.js';
import type { PostgresStoreOptions, QueryRunner } from '../../postgres/index.js';
import { readJson } from './row-values.js';
import type { SqlClient } from '../../postgres/index.js';
import { normalizeIdentifier } from '../shared/normalize-identifier.js';

/**
 * An account as {@link PostgresCredentialStore.addAccount} takes it (the same shape as the
 * in-memory store's accounts).
 *
 * @example
 * const account: PostgresAccount<Claims> = { identifier: 'alice@acme.test', subject: 'alice', passwordHash, claims };
 */
export interface PostgresAccount<Claims> {
  readonly identifier: string;
  readonly subject: string;
  readonly passwordHash: string;
  readonly claims: Claims;
  readonly disabled?: boolean | undefined;
}


/**
 * A {@link CredentialStore} on the `tessera_accounts` table (see `migrate`). Lookups by
 * identifier compare the form of `normalizeIdentifier` (NFKC, trimmed, lower-cased). A disabled account is still found by
 * `findByIdentifier` (so its password is verified, keeping timing uniform) but `loadClaims`
 * answers undefined, so it cannot sign in or refresh.
 *
 * Database failures throw a `StoreUnavailableError` (503).
 *
 * @example
 * const accounts = new PostgresCredentialStore<Claims>(pool);
 * await accounts.addAccount({ identifier: 'alice@acme.test', subject: 'alice', passwordHash: await hashPassword(pw), claims });
 */
export class PostgresCredentialStore<Claims = unknown> implements RehashingCredentialStore<Claims> {
  readonly #run: QueryRunner;

  constructor(client: SqlClient, options: PostgresStoreOptions = {}) {
    this.#run = createQueryRunner(client, 'credential', options, () => new Error('An account with this identifier or subject already exists'));
  }

  /** The account for an identifier (in the form of `normalizeIdentifier`), disabled or not. */
  async findByIdentifier(identifier: string): Promise<StoredCredential | undefined> {
    const rows = await this.#run<{ subject: string; password_hash: string }>(
      'findByIdentifier',
      'SELECT subject, password_hash FROM tessera_accounts WHERE identifier = $1',
      [normalizeIdentifier(identifier)],
    );
    const row = rows[0];
    return row === undefined ? undefined : { subject: row.subject, passwordHash: row.password_hash };
  }

  /** The subject's claims; undefined for an unknown or disabled subject. */
  async loadClaims(subject: string): Promise<Claims | undefined> {
    const rows = await this.#run<{ claims: unknown }>(
      'loadClaims',
      'SELECT claims FROM tessera_accounts WHERE subject = $1 AND NOT disabled',
      [subject],
    );
    const row = rows[0];
    return row === undefined ? undefined : (readJson(row.claims) as Claims);
  }

  /**
   * Replaces the subject's password hash with `to` while it is still `from` (one conditional
   * UPDATE); true when it did. The rehash at sign-in (`RehashingCredentialStore`).
   *
   * @example
   * await accounts.replacePasswordHash('bob', storedHash, freshHash);
   */
  async replacePasswordHash(subject: string, from: string, to: string): Promise<boolean> {
    const rows = await this.#run('replacePasswordHash', 'UPDATE tessera_accounts SET password_hash = $3 WHERE subject = $1 AND password_hash = $2 RETURNING 1 AS replaced', [subject, from, to], 'write');
    return rows.length === 1;
  }

  /**
   * Adds an account. Throws if the identifier (normalised) or the subject is taken.
   *
   * @example
   * await accounts.addAccount({ identifier: 'bob@acme.test', subject: 'bob', passwordHash, claims });
   */
  async addAccount(account: PostgresAccount<Claims>): Promise<void> {
    await this.#run(
      'addAccount',
      'INSERT INTO tessera_accounts (subject, identifier, password_hash, claims, disabled) VALUES ($1, $2, $3, $4::jsonb, $5)',
      [account.subject, normalizeIdentifier(account.identifier), account.passwordHash, JSON.stringify(account.claims), account.disabled ?? false],
      'write',
    );
  }

  /**
   * Adds an account unless its identifier or subject exists; true when it was added. For
   * idempotent seeding: concurrent callers (two instances starting) cannot both insert.
   *
   * @example
   * if (!(await accounts.hasIdentifier(id))) await accounts.addAccountIfAbsent({ ...account, passwordHash: await hashPassword(pw) });
   */
  async addAccountIfAbsent(account: PostgresAccount<Claims>): Promise<boolean> {
    const rows = await this.#run(
      'addAccountIfAbsent',
      `INSERT INTO tessera_accounts (subject, identifier, password_hash, claims, disabled) VALUES ($1, $2, $3, $4::jsonb, $5)
       ON CONFLICT DO NOTHING RETURNING 1 AS added`,
      [account.subject, normalizeIdentifier(account.identifier), account.passwordHash, JSON.stringify(account.claims), account.disabled ?? false],
      'write',
    );
    return rows.length === 1;
  }

  /**
   * Whether an account with this identifier (normalised) exists; lets seeding skip hashing.
   *
   * @example
   * await accounts.hasIdentifier('Alice@ACME.test'); // true
   */
  async hasIdentifier(identifier: string): Promise<boolean> {
    return (await this.findByIdentifier(identifier)) !== undefined;
  }

  /**
   * Replaces a subject's claims (validated at the next sign-in or refresh, not here).
   *
   * @example
   * await accounts.setClaims('bob', { sub: 'bob', roles: ['owner'], tenantId: 'acme' });
   */
  async setClaims(subject: string, claims: Claims): Promise<void> {
    await this.#update('setClaims', 'UPDATE tessera_accounts SET claims = $2::jsonb WHERE subject = $1 RETURNING 1 AS found', [subject, JSON.stringify(claims)]);
  }

  /**
   * Replaces a subject's password hash (pair it with `revokeAllSessions(subject)`).
   *
   * @example
   * await accounts.setPasswordHash('bob', await hashPassword(newPassword));
   */
  async setPasswordHash(subject: string, passwordHash: string): Promise<void> {
    await this.#update('setPasswordHash', 'UPDATE tessera_accounts SET password_hash = $2 WHERE subject = $1 RETURNING 1 AS found', [subject, passwordHash]);
  }

  /**
   * Disables an account: `loadClaims` answers undefined, so sign-in and refresh fail with 401.
   *
   * @example
   * await accounts.disable('bob');
   */
  async disable(subject: string): Promise<void> {
    await this.#update('disable', 'UPDATE tessera_accounts SET disabled = true WHERE subject = $1 RETURNING 1 AS found', [subject]);
  }

  /**
   * Re-enables a disabled account.
   *
   * @example
   * await accounts.enable('bob');
   */
  async enable(subject: string): Promise<void> {
    await this.#update('enable', 'UPDATE tessera_accounts SET disabled = false WHERE subject = $1 RETURNING 1 AS found', [subject]);
  }

  async #update(operation: string, text: string, params: unknown[]): Promise<void> {
    const rows = await this.#run(operation, text, params, 'write');
    if (rows.length === 0) throw new Error('No account with this subject');
  }
}
