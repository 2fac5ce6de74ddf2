import type { AccountRecord, AccountTokenPurpose, ConsumedAccountToken, NewAccount, NewAccountToken, TransactionalAccountStore } from '../accounts/account-store.js';
import type { StoredCredential } from '../sessions/issuing/credential-store.js';
import type { AccountTransaction } from '../accounts/account-mail-intent.js';
import { createQueryRunner, DEFAULT_QUERY_TIMEOUT_MS, lendsConnections, StoreUnavailableError } from '../../postgres/index.js';
import type { PooledSqlConnection, PostgresStoreOptions, QueryRunner, SqlClient } from '../../postgres/index.js';
import { readJson, readTimestamp, requireValidDate, toTimestampParam } from './row-values.js';
import { normalizeIdentifier } from '../shared/normalize-identifier.js';

interface AccountRow {
  readonly subject: string;
  readonly identifier: string;
  readonly password_hash: string;
  readonly email_verified: boolean;
  readonly disabled: boolean;
  readonly claims: unknown;
}

const ACCOUNT_COLUMNS = 'subject, identifier, password_hash, email_verified, disabled, claims';


/** A broken unique constraint, told apart from an outage so `changeEmail` can answer false. */
class AccountConflict extends Error {}

/** `setPasswordHash` for a subject with no account: the caller's fault, not the database's. */
class UnknownSubject extends Error {}

/** PostgreSQL's unique_violation (SQLSTATE 23505). */
function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/**
 * An {@link AccountStore} on PostgreSQL (see `migrate`, version 4): accounts in
 * `tessera_accounts` (the table `PostgresCredentialStore` reads, so either store signs the
 * accounts in), mail tokens in `tessera_account_tokens` by their SHA-256 only. `consumeToken`
 * is one `DELETE ... RETURNING`, so two instances never both consume a token. `issueToken`
 * deletes the account's older tokens of the purpose in the same statement; two requests racing
 * on one account may both keep a token until one is used (a reset then deletes the rest).
 *
 * Database failures throw a `StoreUnavailableError` (503).
 *
 * @example
 * accounts: { store: defineProvider(PostgresAccountStore, [DB]), imports: [DbModule], links, newAccountClaims }
 */
export class PostgresAccountStore<Claims = unknown> implements TransactionalAccountStore<Claims> {
  readonly #run: QueryRunner;
  readonly #client: SqlClient;
  readonly #timeoutMs: number;

  constructor(client: SqlClient, options: PostgresStoreOptions = {}) {
    this.#run = createQueryRunner(client, 'account', options, () => new AccountConflict('An account with this e-mail or subject already exists'));
    this.#client = client;
    this.#timeoutMs = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  }

  /** Creates the account unless its e-mail (normalised) or subject is taken; true when created. */
  async createAccount(account: NewAccount<Claims>): Promise<boolean> {
    const rows = await this.#run(
      'createAccount',
      `INSERT INTO tessera_accounts (subject, identifier, password_hash, claims, email_verified) VALUES ($1, $2, $3, $4::jsonb, $5)
       ON CONFLICT DO NOTHING RETURNING 1 AS created`,
      [account.subject, normalizeIdentifier(account.email), account.passwordHash, JSON.stringify(account.claims), account.emailVerified],
      'write',
    );
    return rows.length === 1;
  }

  /**
   * `createAccount` and `then` in one transaction on a connection the pool lends (sign-up's
   * account and its mail job: both or neither); see {@link #inTransaction} for bounds and failures.
   */
  async createAccountInTransaction(account: NewAccount<Claims>, then: (created: boolean, transaction: AccountTransaction) => Promise<void>): Promise<boolean> {
    return this.#inTransaction(
      'createAccountInTransaction',
      async (connection) => {
        const created = await connection.query<{ created: number }>(
          `INSERT INTO tessera_accounts (subject, identifier, password_hash, claims, email_verified) VALUES ($1, $2, $3, $4::jsonb, $5)
           ON CONFLICT DO NOTHING RETURNING 1 AS created`,
          [account.subject, normalizeIdentifier(account.email), account.passwordHash, JSON.stringify(account.claims), account.emailVerified],
        );
        return created.rows.length === 1;
      },
      then,
    );
  }

  /**
   * `setPasswordHash` and `then` in one transaction (a reset's or change's new password and its
   * "your password was changed" mail: both or neither). Throws for an unknown subject, changing
   * nothing.
   */
  async setPasswordHashInTransaction(subject: string, passwordHash: string, then: (transaction: AccountTransaction) => Promise<void>): Promise<void> {
    await this.#inTransaction(
      'setPasswordHashInTransaction',
      async (connection) => {
        const found = await connection.query('UPDATE tessera_accounts SET password_hash = $2 WHERE subject = $1 RETURNING 1 AS found', [subject, passwordHash]);
        if (found.rows.length === 0) throw new UnknownSubject('No account with this subject');
        return true;
      },
      (_done, transaction) => then(transaction),
    );
  }

  /**
   * `changeEmail` and `then` (told whether the address changed) in one transaction (the move and
   * the notice to the old address: both or neither). False, committing nothing of the move, when
   * `from` is no longer the account's address or `to` is taken (a racing transaction's unique
   * violation included).
   */
  async changeEmailInTransaction(subject: string, from: string, to: string, then: (changed: boolean, transaction: AccountTransaction) => Promise<void>): Promise<boolean> {
    return this.#inTransaction(
      'changeEmailInTransaction',
      async (connection) => {
        const changed = await connection.query(
          `UPDATE tessera_accounts SET identifier = $3, email_verified = true WHERE subject = $1 AND identifier = $2
           AND NOT EXISTS (SELECT 1 FROM tessera_accounts WHERE identifier = $3) RETURNING 1 AS changed`,
          [subject, normalizeIdentifier(from), normalizeIdentifier(to)],
        );
        return changed.rows.length === 1;
      },
      then,
      false,
    );
  }

  /**
   * One transaction on a connection the pool lends: `write`, then `then` with its result, then
   * COMMIT; each statement bounded by `queryTimeoutMs`. Rolled back when `then` rejects (its error
   * is rethrown as it is), when `write` breaks a unique constraint (answers `onConflict`, when
   * given) or the database fails (a 503). Needs a client that lends connections (pg's `Pool`); any
   * other is refused.
   */
  async #inTransaction<T>(operation: string, write: (connection: PooledSqlConnection) => Promise<T>, then: (result: T, transaction: AccountTransaction) => Promise<void>, onConflict?: T): Promise<T> {
    if (!lendsConnections(this.#client)) throw new TypeError(`PostgresAccountStore.${operation} needs a client that lends connections (pg Pool): one transaction holds the write and its mail`);
    const connection = await this.#client.connect().catch((error: unknown) => {
      throw new StoreUnavailableError('account', operation, error instanceof Error ? error : undefined);
    });
    // pg emits a connection dropped between two statements as an 'error' event; unheard, it ends the process.
    let broken = false;
    const events = connection as Partial<Record<'on' | 'removeListener', (event: string, listener: () => void) => unknown>>;
    const onError = () => (broken = true);
    events.on?.call(connection, 'error', onError);
    const release = (destroy: boolean) => {
      events.removeListener?.call(connection, 'error', onError);
      connection.release(destroy || broken);
    };
    let inThen = false;
    let inWrite = false;
    try {
      await connection.query(this.#timeoutMs > 0 ? `BEGIN; SET LOCAL statement_timeout = ${Math.ceil(this.#timeoutMs)}` : 'BEGIN');
      inWrite = true;
      const result = await write(connection);
      inWrite = false;
      inThen = true;
      await then(result, connection);
      inThen = false;
      await connection.query('COMMIT');
      release(false);
      return result;
    } catch (error) {
      // Rolled back, or, when even that fails, the connection closed: the server rolls back a transaction whose connection is gone.
      const rolledBack = await connection.query('ROLLBACK').then(
        () => (release(false), true),
        () => (release(true), false),
      );
      if (inThen || error instanceof UnknownSubject) throw error;
      if (inWrite && rolledBack && onConflict !== undefined && isUniqueViolation(error)) return onConflict;
      throw new StoreUnavailableError('account', operation, error instanceof Error ? error : undefined);
    }
  }

  /** The account with this e-mail (trimmed, case-insensitive), or undefined. */
  async findByEmail(email: string): Promise<AccountRecord<Claims> | undefined> {
    const rows = await this.#run<AccountRow>('findByEmail', `SELECT ${ACCOUNT_COLUMNS} FROM tessera_accounts WHERE identifier = $1`, [normalizeIdentifier(email)]);
    return rows[0] === undefined ? undefined : toRecord<Claims>(rows[0]);
  }

  /** The account of a subject, or undefined. */
  async findBySubject(subject: string): Promise<AccountRecord<Claims> | undefined> {
    const rows = await this.#run<AccountRow>('findBySubject', `SELECT ${ACCOUNT_COLUMNS} FROM tessera_accounts WHERE subject = $1`, [subject]);
    return rows[0] === undefined ? undefined : toRecord<Claims>(rows[0]);
  }

  /** CredentialStore: the account for a sign-in identifier (its e-mail), disabled or not. */
  async findByIdentifier(identifier: string): Promise<StoredCredential | undefined> {
    const rows = await this.#run<{ subject: string; password_hash: string }>('findByIdentifier', 'SELECT subject, password_hash FROM tessera_accounts WHERE identifier = $1', [normalizeIdentifier(identifier)]);
    const row = rows[0];
    return row === undefined ? undefined : { subject: row.subject, passwordHash: row.password_hash };
  }

  /** CredentialStore: the claims; undefined for an unknown or disabled subject. Typed as the interface is, so the class infers the module's claims. */
  async loadClaims(subject: string): Promise<Claims | null | undefined> {
    const rows = await this.#run<{ claims: unknown }>('loadClaims', 'SELECT claims FROM tessera_accounts WHERE subject = $1 AND NOT disabled', [subject]);
    return rows[0] === undefined ? undefined : (readJson(rows[0].claims) as Claims);
  }

  /** Marks the address verified while the account still has it; true when it did. */
  async markEmailVerified(subject: string, email: string): Promise<boolean> {
    const rows = await this.#run('markEmailVerified', 'UPDATE tessera_accounts SET email_verified = true WHERE subject = $1 AND identifier = $2 RETURNING 1 AS found', [subject, normalizeIdentifier(email)], 'write');
    return rows.length === 1;
  }

  /** Replaces the password hash. Throws for an unknown subject. */
  async setPasswordHash(subject: string, passwordHash: string): Promise<void> {
    const rows = await this.#run('setPasswordHash', 'UPDATE tessera_accounts SET password_hash = $2 WHERE subject = $1 RETURNING 1 AS found', [subject, passwordHash], 'write');
    if (rows.length === 0) throw new Error('No account with this subject');
  }

  /** Replaces the password hash with `to` while it is still `from`; true when it did (a rehash at sign-in). */
  async replacePasswordHash(subject: string, from: string, to: string): Promise<boolean> {
    const rows = await this.#run('replacePasswordHash', 'UPDATE tessera_accounts SET password_hash = $3 WHERE subject = $1 AND password_hash = $2 RETURNING 1 AS replaced', [subject, from, to], 'write');
    return rows.length === 1;
  }

  /** Moves the account from `from` to `to` (verified); false when `from` is no longer its address or `to` is taken. */
  async changeEmail(subject: string, from: string, to: string): Promise<boolean> {
    try {
      const rows = await this.#run(
        'changeEmail',
        'UPDATE tessera_accounts SET identifier = $3, email_verified = true WHERE subject = $1 AND identifier = $2 RETURNING 1 AS changed',
        [subject, normalizeIdentifier(from), normalizeIdentifier(to)],
        'write',
      );
      return rows.length === 1;
    } catch (error) {
      // The unique index on identifier decides a race for the address: the loser is told no.
      if (error instanceof AccountConflict) return false;
      throw error;
    }
  }

  /** Stores the token and, in the same statement, deletes the subject's other tokens of its purpose. */
  async issueToken(token: NewAccountToken): Promise<void> {
    const expiresAt = requireValidDate(token.expiresAt, 'expiresAt');
    await this.#run(
      'issueToken',
      `WITH superseded AS (DELETE FROM tessera_account_tokens WHERE subject = $2 AND purpose = $3)
       INSERT INTO tessera_account_tokens (token_hash, subject, purpose, email, expires_at) VALUES ($1, $2, $3, $4, $5::timestamptz)`,
      [token.tokenHash, token.subject, token.purpose, normalizeIdentifier(token.email), toTimestampParam(expiresAt)],
      'write',
    );
  }

  /** Removes and answers the token when hash and purpose match (one `DELETE ... RETURNING`); a token of another purpose stays. */
  async consumeToken(tokenHash: string, purpose: AccountTokenPurpose): Promise<ConsumedAccountToken | undefined> {
    const rows = await this.#run<{ subject: string; email: string; expires_at: unknown }>(
      'consumeToken',
      'DELETE FROM tessera_account_tokens WHERE token_hash = $1 AND purpose = $2 RETURNING subject, email, expires_at',
      [tokenHash, purpose],
      'write',
    );
    const row = rows[0];
    const expiresAt = row === undefined ? null : readTimestamp(row.expires_at);
    return row === undefined || expiresAt === null ? undefined : { subject: row.subject, email: row.email, expiresAt };
  }

  /** Deletes every token of the subject for that purpose. */
  async deleteTokens(subject: string, purpose: AccountTokenPurpose): Promise<void> {
    await this.#run('deleteTokens', 'DELETE FROM tessera_account_tokens WHERE subject = $1 AND purpose = $2', [subject, purpose], 'write');
  }

  /**
   * Deletes tokens that expired before `before`; answers how many. Run it now and then (a
   * scheduled job): expired tokens are refused anyway, this only keeps the table small.
   *
   * @example
   * await accounts.purgeExpiredTokens(new Date());
   */
  async purgeExpiredTokens(before: Date): Promise<number> {
    const rows = await this.#run('purgeExpiredTokens', 'DELETE FROM tessera_account_tokens WHERE expires_at < $1::timestamptz RETURNING 1 AS purged', [toTimestampParam(requireValidDate(before, 'before'))], 'write');
    return rows.length;
  }

  /**
   * Disables an account: it is still found (its password still verified) but cannot sign in.
   *
   * @example
   * await accounts.disable('u_1');
   */
  async disable(subject: string): Promise<void> {
    await this.#run('disable', 'UPDATE tessera_accounts SET disabled = true WHERE subject = $1', [subject], 'write');
  }
}

function toRecord<Claims>(row: AccountRow): AccountRecord<Claims> {
  return {
    subject: row.subject,
    email: row.identifier,
    passwordHash: row.password_hash,
    emailVerified: row.email_verified,
    disabled: row.disabled,
    claims: readJson(row.claims) as Claims,
  };
}
