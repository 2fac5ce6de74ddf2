import type { ApiKeyRecord } from '../credentials/api-keys/api-key-record.js';
import type { ApiKeyStore } from '../credentials/api-keys/api-key-store.js';
import { createQueryRunner } from '../../postgres/index.js';
import type { PostgresStoreOptions, QueryRunner } from '../../postgres/index.js';
import { readJson, readTimestamp, requireValidDate, toTimestampParam } from './row-values.js';
import type { SqlClient } from '../../postgres/index.js';

/**
 * A key as {@link PostgresApiKeyStore.add} takes it: the record plus management fields the
 * authenticator never reads (who owns it, a display name, when it was made).
 *
 * @example
 * const key: NewPostgresApiKey = { id, secretHash, claims, scopes: ['posts:read'], owner: 'acme', name: 'ci', createdAt: new Date() };
 */
export interface NewPostgresApiKey extends ApiKeyRecord {
  /** Any owner id (a tenant, a user); `listByOwner` and owner-checked `revoke` use it. */
  readonly owner?: string | null;
  readonly name?: string | null;
  /** Default: now. */
  readonly createdAt?: Date;
}

/**
 * A stored key as management routes see it: the record plus owner, name, creation and last use.
 *
 * @example
 * const keys: StoredApiKey[] = await store.listByOwner('acme');
 */
export interface StoredApiKey extends ApiKeyRecord {
  readonly owner: string | null;
  readonly name: string | null;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
}

interface KeyRow {
  readonly id: string;
  readonly secret_hash: string;
  readonly claims: unknown;
  readonly scopes: unknown;
  readonly expires_at: unknown;
  readonly revoked_at: unknown;
  readonly allowed_cidrs: unknown;
}

interface ManagedKeyRow extends KeyRow {
  readonly owner: string | null;
  readonly name: string | null;
  readonly created_at: unknown;
  readonly last_used_at: unknown;
}

const RECORD_COLUMNS = 'id, secret_hash, claims, scopes, expires_at, revoked_at, allowed_cidrs';

/**
 * Rows are handed over as read; the authenticator validates them (scopes must be strings,
 * networks canonical, dates valid) and answers 503 for a record it cannot read, so a corrupt row
 * fails closed there rather than being "repaired" here.
 */
function toRecord(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    secretHash: row.secret_hash,
    claims: readJson(row.claims),
    scopes: readJson(row.scopes) as readonly string[],
    expiresAt: readTimestamp(row.expires_at),
    revokedAt: readTimestamp(row.revoked_at),
    allowedCidrs: readJson(row.allowed_cidrs) as readonly string[] | null,
  };
}

function optionalDate(value: Date | null | undefined, name: string): string | null {
  return value === null || value === undefined ? null : toTimestampParam(requireValidDate(value, name));
}

/**
 * An {@link ApiKeyStore} on the `tessera_api_keys` table (see `migrate`), plus the management
 * operations an application needs (add, list by owner, revoke).
 *
 * - `find` throws a `StoreUnavailableError` when the database cannot answer; the auth guard then
 *   answers 503 and never lets the request through.
 * - `touch` only ever writes `last_used_at` (a single UPDATE of that one column), so it can never
 *   undo a concurrent revocation: PostgreSQL re-reads a row changed by a concurrent transaction
 *   before updating it, and `revoked_at` is not in the SET list.
 * - `revoke` keeps the earliest `revokedAt` and never clears it.
 *
 * @example
 * const keys = new PostgresApiKeyStore(pool);
 * const generated = generateApiKey();
 * await keys.add({ id: generated.id, secretHash: generated.secretHash, claims, scopes: ['posts:read'], owner: 'acme', name: 'ci' });
 * AuthModule.forRoot({ secret, apiKeys: { store: defineProvider(PostgresApiKeyStore, [SQL_CLIENT]), imports: [DatabaseModule] } });
 */
export class PostgresApiKeyStore implements ApiKeyStore {
  readonly #run: QueryRunner;

  constructor(client: SqlClient, options: PostgresStoreOptions = {}) {
    this.#run = createQueryRunner(client, 'api-key', options, () => new Error('An API key with this id already exists'));
  }

  async find(id: string): Promise<ApiKeyRecord | undefined> {
    const rows = await this.#run<KeyRow>('find', `SELECT ${RECORD_COLUMNS} FROM tessera_api_keys WHERE id = $1`, [id]);
    const row = rows[0];
    return row === undefined ? undefined : toRecord(row);
  }

  async touch(id: string, at: Date): Promise<void> {
    // GREATEST: a delayed touch from another instance never moves last use backwards.
    await this.#run(
      'touch',
      'UPDATE tessera_api_keys SET last_used_at = GREATEST(last_used_at, $2::timestamptz) WHERE id = $1',
      [id, toTimestampParam(requireValidDate(at, 'at'))],
    );
  }

  /**
   * Stores a new key. Throws if the id is taken: ids are never reused.
   *
   * @example
   * await keys.add({ id, secretHash, claims, scopes: [], owner: 'acme', name: 'deploy bot' });
   */
  async add(key: NewPostgresApiKey): Promise<void> {
    const cidrs = key.allowedCidrs === null || key.allowedCidrs === undefined ? null : JSON.stringify([...key.allowedCidrs]);
    await this.#run(
      'add',
      `INSERT INTO tessera_api_keys (id, secret_hash, claims, scopes, expires_at, revoked_at, allowed_cidrs, owner, name, created_at)
       VALUES ($1, $2, $3::jsonb, $4::jsonb, $5::timestamptz, $6::timestamptz, $7::jsonb, $8, $9, $10::timestamptz)`,
      [
        key.id,
        key.secretHash,
        JSON.stringify(key.claims),
        JSON.stringify([...(key.scopes ?? [])]),
        optionalDate(key.expiresAt, 'expiresAt'),
        optionalDate(key.revokedAt, 'revokedAt'),
        cidrs,
        key.owner ?? null,
        key.name ?? null,
        toTimestampParam(requireValidDate(key.createdAt ?? new Date(), 'createdAt')),
      ],
      'write',
    );
  }

  /**
   * Marks a key revoked from `at`, keeping the record; revoking again keeps the earlier moment.
   * With `owner`, only a key of that owner is revoked. False when no such key (of that owner).
   *
   * @example
   * if (!(await keys.revoke(id, new Date(), { owner: tenantId }))) throw new NotFoundException('No such API key');
   */
  async revoke(id: string, at: Date, options: { readonly owner?: string } = {}): Promise<boolean> {
    const atParam = toTimestampParam(requireValidDate(at, 'at'));
    const ownerCheck = options.owner === undefined ? '' : ' AND owner = $3';
    const params: unknown[] = options.owner === undefined ? [id, atParam] : [id, atParam, options.owner];
    const rows = await this.#run(
      'revoke',
      `UPDATE tessera_api_keys SET revoked_at = LEAST(revoked_at, $2::timestamptz) WHERE id = $1${ownerCheck} RETURNING 1 AS found`,
      params,
      'write',
    );
    return rows.length === 1;
  }

  /**
   * Every key of one owner (revoked ones included), oldest first.
   *
   * @example
   * const keys = await store.listByOwner('acme');
   */
  async listByOwner(owner: string): Promise<StoredApiKey[]> {
    const rows = await this.#run<ManagedKeyRow>(
      'listByOwner',
      `SELECT ${RECORD_COLUMNS}, owner, name, created_at, last_used_at FROM tessera_api_keys WHERE owner = $1 ORDER BY created_at, id`,
      [owner],
    );
    return rows.map((row) => ({
      ...toRecord(row),
      owner: row.owner,
      name: row.name,
      createdAt: readTimestamp(row.created_at) ?? new Date(0),
      lastUsedAt: readTimestamp(row.last_used_at),
    }));
  }

  /**
   * When `touch` last recorded a use of the key, if ever.
   *
   * @example
   * await store.lastUsedAt(id); // Date | undefined
   */
  async lastUsedAt(id: string): Promise<Date | undefined> {
    const rows = await this.#run<{ last_used_at: unknown }>('lastUsedAt', 'SELECT last_used_at FROM tessera_api_keys WHERE id = $1', [id]);
    return readTimestamp(rows[0]?.last_used_at) ?? undefined;
  }
}
