import { systemClock } from '../../index.js';
import { checkedClock } from '../../internal/primitives.js';
import type { Clock } from '../../index.js';
import type { NewRefreshToken, RefreshTokenRecord, RefreshTokenSuccessor } from '../sessions/issuing/refresh-token-record.js';
import type { RefreshTokenStore, RevokedFamily } from '../sessions/issuing/refresh-token-store.js';
import type { StoredSession } from '../sessions/state/stored-session.js';
import { createQueryRunner } from '../../postgres/index.js';
import type { PostgresStoreOptions, QueryRunner } from '../../postgres/index.js';
import { readTimestamp, requireValidDate, toTimestampParam } from './row-values.js';
import type { SqlClient } from '../../postgres/index.js';

/**
 * Options of {@link PostgresRefreshTokenStore}.
 *
 * @example
 * new PostgresRefreshTokenStore(pool, { clock, queryTimeoutMs: 2_000 });
 */
export interface PostgresRefreshTokenStoreOptions extends PostgresStoreOptions {
  /** Stamps `rotatedAt` and `revokedAt` (sent as parameters, not SQL `now()`); default the system clock. */
  readonly clock?: Clock | undefined;
}

interface TokenRow {
  readonly subject: string;
  readonly family_id: string | null;
  readonly expires_at: unknown;
  readonly rotated_at: unknown;
  readonly revoked_at: unknown;
  readonly issued_at: unknown;
  readonly session_started_at: unknown;
  readonly user_agent: string | null;
  readonly client_address: string | null;
}

interface SessionRow {
  readonly family_id: string;
  readonly expires_at: unknown;
  readonly issued_at: unknown;
  readonly session_started_at: unknown;
  readonly user_agent: string | null;
  readonly client_address: string | null;
}

/** The columns a new token is stored with, in the order of the INSERTs' parameters. */
const TOKEN_COLUMNS = 'token_hash, subject, family_id, expires_at, issued_at, session_started_at, user_agent, client_address';

/**
 * The compare-and-set of the state table: only an active token (neither rotated nor revoked)
 * matches, and the row lock taken by UPDATE makes concurrent callers queue; under READ COMMITTED
 * each waiter re-checks the WHERE clause against the winner's committed row, finds
 * `rotated_at` set and matches nothing. So exactly one caller gets a row back.
 */
const MARK_ROTATED_SQL = `UPDATE tessera_refresh_tokens SET rotated_at = $2::timestamptz
WHERE token_hash = $1 AND rotated_at IS NULL AND revoked_at IS NULL
RETURNING 1 AS rotated`;

/**
 * `markRotated` and the successor's INSERT in ONE statement: the INSERT selects from the
 * UPDATE's RETURNING, so the successor is stored only if this statement won the compare-and-set,
 * and a failing INSERT (a duplicate hash) aborts the UPDATE with it. No transaction block and no
 * dedicated connection are needed, and no read-then-write happens in JavaScript.
 */
const ROTATE_SQL = `WITH old AS (
  UPDATE tessera_refresh_tokens SET rotated_at = $2::timestamptz
  WHERE token_hash = $1 AND rotated_at IS NULL AND revoked_at IS NULL
  RETURNING 1
)
INSERT INTO tessera_refresh_tokens (${TOKEN_COLUMNS})
SELECT $3::text, $4::text, $5::text, $6::timestamptz, $7::timestamptz, $8::timestamptz, $9::text, $10::text FROM old
RETURNING 1 AS rotated`;

/**
 * A subject's sessions: each family's current token (the one neither rotated nor revoked),
 * served by the partial index on (subject) WHERE revoked_at IS NULL (migration 1).
 */
const LIST_SESSIONS_SQL = `SELECT family_id, expires_at, issued_at, session_started_at, user_agent, client_address
FROM tessera_refresh_tokens
WHERE subject = $1 AND revoked_at IS NULL AND rotated_at IS NULL AND family_id IS NOT NULL`;

/** Sessions ended since $1, each once; served by the partial index on `revoked_at` (migration 2). */
const REVOKED_FAMILIES_SQL = `SELECT family_id, max(revoked_at) AS revoked_at FROM tessera_refresh_tokens
WHERE revoked_at >= $1::timestamptz AND family_id IS NOT NULL
GROUP BY family_id`;

function checkHash(tokenHash: unknown): asserts tokenHash is string {
  if (typeof tokenHash !== 'string' || tokenHash === '') throw new TypeError('tokenHash must be a non-empty string');
}

/** The INSERT parameters after the hash, validated: subject, family, expiry, then the session metadata. */
function checkToken(token: NewRefreshToken): [string, string | null, string, string | null, string | null, string | null, string | null] {
  if (typeof token.subject !== 'string') throw new TypeError('subject must be a string');
  const expiresAt = toTimestampParam(requireValidDate(token.expiresAt, 'expiresAt'));
  return [
    token.subject,
    typeof token.familyId === 'string' ? token.familyId : null,
    expiresAt,
    optionalTimestamp(token.issuedAt, 'issuedAt'),
    optionalTimestamp(token.sessionStartedAt, 'sessionStartedAt'),
    optionalText(token.userAgent, 'userAgent'),
    optionalText(token.clientAddress, 'clientAddress'),
  ];
}

function optionalTimestamp(value: Date | undefined, name: string): string | null {
  return value === undefined ? null : toTimestampParam(requireValidDate(value, name));
}

function optionalText(value: string | null | undefined, name: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string when given`);
  return value;
}

/**
 * A {@link RefreshTokenStore} on the `tessera_refresh_tokens` table (see `migrate`), with every
 * optional operation: an atomic `rotate`, `revokeFamily`, `revokedFamiliesSince`, `listSessions` (migration 5's columns) and `revokeEverySession`. Every operation is one SQL
 * statement, so it is atomic across connections and processes: `markRotated` is a conditional
 * UPDATE (`... WHERE rotated_at IS NULL AND revoked_at IS NULL RETURNING 1`), and `rotate` is
 * that UPDATE in a CTE feeding the successor's INSERT. Revocation keeps the first `revokedAt`.
 * Only token hashes are stored.
 *
 * Database failures throw a `StoreUnavailableError` (503); a duplicate hash throws a plain Error.
 *
 * @example
 * AuthModule.forRoot({ secret, issuing: {
 *   credentialStore: defineProvider(PostgresCredentialStore<Claims>, [SQL_CLIENT]),
 *   refreshTokenStore: defineProvider(PostgresRefreshTokenStore, [SQL_CLIENT]),
 *   imports: [DatabaseModule],
 * } });
 */
export class PostgresRefreshTokenStore implements RefreshTokenStore {
  readonly #run: QueryRunner;
  readonly #clock: Clock;

  constructor(client: SqlClient, options: PostgresRefreshTokenStoreOptions = {}) {
    this.#run = createQueryRunner(client, 'refresh-token', options, () => new Error('A refresh token with this hash is already stored'));
    this.#clock = checkedClock(options.clock ?? systemClock);
  }

  async create(tokenHash: string, token: NewRefreshToken): Promise<void> {
    checkHash(tokenHash);
    await this.#run(
      'create',
      `INSERT INTO tessera_refresh_tokens (${TOKEN_COLUMNS}) VALUES ($1, $2, $3, $4::timestamptz, $5::timestamptz, $6::timestamptz, $7, $8)`,
      [tokenHash, ...checkToken(token)],
      'write',
    );
  }

  async find(tokenHash: string): Promise<RefreshTokenRecord | undefined> {
    const rows = await this.#run<TokenRow>(
      'find',
      'SELECT subject, family_id, expires_at, rotated_at, revoked_at, issued_at, session_started_at, user_agent, client_address FROM tessera_refresh_tokens WHERE token_hash = $1',
      [tokenHash],
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    return {
      subject: row.subject,
      familyId: row.family_id,
      // A NULL expires_at cannot exist (NOT NULL); an unreadable one reads as invalid, i.e. expired.
      expiresAt: readTimestamp(row.expires_at) ?? new Date(Number.NaN),
      rotatedAt: readTimestamp(row.rotated_at),
      revokedAt: readTimestamp(row.revoked_at),
      issuedAt: readTimestamp(row.issued_at),
      sessionStartedAt: readTimestamp(row.session_started_at),
      userAgent: row.user_agent,
      clientAddress: row.client_address,
    };
  }

  async markRotated(tokenHash: string): Promise<boolean> {
    const rows = await this.#run('markRotated', MARK_ROTATED_SQL, [tokenHash, this.#now()], 'write');
    return rows.length === 1;
  }

  async rotate(oldTokenHash: string, next: RefreshTokenSuccessor): Promise<boolean> {
    checkHash(next.tokenHash);
    const successor = checkToken(next);
    const rows = await this.#run('rotate', ROTATE_SQL, [oldTokenHash, this.#now(), next.tokenHash, ...successor], 'write');
    return rows.length === 1;
  }

  async revoke(tokenHash: string): Promise<void> {
    // `revoked_at IS NULL`: revoking twice keeps the first moment, for the audit trail.
    await this.#run('revoke', 'UPDATE tessera_refresh_tokens SET revoked_at = $2::timestamptz WHERE token_hash = $1 AND revoked_at IS NULL', [
      tokenHash,
      this.#now(),
    ], 'write');
  }

  async revokeAllForSubject(subject: string): Promise<void> {
    await this.#run('revokeAllForSubject', 'UPDATE tessera_refresh_tokens SET revoked_at = $2::timestamptz WHERE subject = $1 AND revoked_at IS NULL', [
      subject,
      this.#now(),
    ], 'write');
  }

  /**
   * Revokes every token of every subject that has not expired (one UPDATE; an expired token is
   * refused anyway), for `AuthService.revokeEverySession`.
   */
  async revokeEverySession(): Promise<void> {
    const now = this.#now();
    await this.#run('revokeEverySession', 'UPDATE tessera_refresh_tokens SET revoked_at = $1::timestamptz WHERE revoked_at IS NULL AND expires_at > $1::timestamptz', [now], 'write');
  }

  async revokeFamily(familyId: string): Promise<void> {
    await this.#run('revokeFamily', 'UPDATE tessera_refresh_tokens SET revoked_at = $2::timestamptz WHERE family_id = $1 AND revoked_at IS NULL', [
      familyId,
      this.#now(),
    ], 'write');
  }

  async revokedFamiliesSince(since: Date): Promise<readonly RevokedFamily[]> {
    const rows = await this.#run<{ family_id: string; revoked_at: unknown }>('revokedFamiliesSince', REVOKED_FAMILIES_SQL, [toTimestampParam(requireValidDate(since, 'since'))]);
    const families: RevokedFamily[] = [];
    for (const row of rows) {
      const revokedAt = readTimestamp(row.revoked_at);
      if (revokedAt !== null) families.push({ familyId: row.family_id, revokedAt });
    }
    return families;
  }

  async listSessions(subject: string): Promise<readonly StoredSession[]> {
    const rows = await this.#run<SessionRow>('listSessions', LIST_SESSIONS_SQL, [subject]);
    return rows.map((row) => ({
      familyId: row.family_id,
      expiresAt: readTimestamp(row.expires_at) ?? new Date(Number.NaN),
      issuedAt: readTimestamp(row.issued_at),
      sessionStartedAt: readTimestamp(row.session_started_at),
      userAgent: row.user_agent,
      clientAddress: row.client_address,
    }));
  }

  /**
   * Deletes tokens that expired before `before` and answers how many. Expired tokens are refused
   * anyway; run this from a scheduled job to keep the table small (keep a margin if you audit).
   *
   * @example
   * await store.purgeExpired(new Date(Date.now() - 7 * 86_400_000));
   */
  async purgeExpired(before: Date): Promise<number> {
    const rows = await this.#run<{ purged: number }>(
      'purgeExpired',
      'WITH gone AS (DELETE FROM tessera_refresh_tokens WHERE expires_at < $1::timestamptz RETURNING 1) SELECT count(*)::int AS purged FROM gone',
      [toTimestampParam(requireValidDate(before, 'before'))],
      'write',
    );
    return Number(rows[0]?.purged ?? 0);
  }

  #now(): string {
    return toTimestampParam(new Date(this.#clock.now()));
  }
}
