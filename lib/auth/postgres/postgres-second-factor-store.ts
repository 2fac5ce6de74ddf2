import type { PendingSignIn, SecondFactorStore, StoredChallenge, StoredPasskey, TotpEnrolment, PasskeyChallengePurpose } from '../factors/second-factor-store.js';
import { createQueryRunner } from '../../postgres/index.js';
import type { PostgresStoreOptions, QueryRunner, SqlClient } from '../../postgres/index.js';
import { readJson, readTimestamp, requireValidDate, toTimestampParam } from './row-values.js';

interface TotpRow {
  readonly sealed_secret: string;
  readonly confirmed_at: unknown;
  readonly last_step: string | number | null;
}

interface PasskeyRow {
  readonly id: string;
  readonly subject: string;
  readonly public_key: string;
  readonly counter: string | number;
  readonly transports: unknown;
  readonly created_at: unknown;
  readonly last_used_at: unknown;
}

const PASSKEY_COLUMNS = 'id, subject, public_key, counter, transports, created_at, last_used_at';

/**
 * A {@link SecondFactorStore} on PostgreSQL (see `migrate`, version 6). Every "use" is one
 * statement that both checks and changes (`UPDATE ... WHERE <still usable> RETURNING`, or
 * `DELETE ... RETURNING`): under READ COMMITTED a second request racing on the same row waits
 * for the first, re-reads the row, finds it no longer usable and changes nothing, so exactly one
 * request wins a recovery code, a TOTP step, a passkey counter, a challenge or a pending
 * sign-in, on any number of instances. Secrets arrive sealed and codes as keyed digests.
 *
 * Database failures throw a `StoreUnavailableError` (503).
 *
 * @example
 * secondFactors: { store: defineProvider(PostgresSecondFactorStore, [SQL_CLIENT]), imports: [DbModule], encryptionKeys, totpIssuer: 'Acme' }
 */
export class PostgresSecondFactorStore implements SecondFactorStore {
  readonly #run: QueryRunner;

  constructor(client: SqlClient, options: PostgresStoreOptions = {}) {
    this.#run = createQueryRunner(client, 'second factor', options);
  }

  async findTotp(subject: string): Promise<TotpEnrolment | undefined> {
    const rows = await this.#run<TotpRow>('findTotp', 'SELECT sealed_secret, confirmed_at, last_step FROM tessera_totp WHERE subject = $1', [subject]);
    const row = rows[0];
    return row === undefined ? undefined : { sealedSecret: row.sealed_secret, confirmedAt: readTimestamp(row.confirmed_at), lastStep: row.last_step === null ? null : Number(row.last_step) };
  }

  async saveTotpEnrolment(subject: string, sealedSecret: string): Promise<boolean> {
    const rows = await this.#run(
      'saveTotpEnrolment',
      `INSERT INTO tessera_totp (subject, sealed_secret) VALUES ($1, $2)
       ON CONFLICT (subject) DO UPDATE SET sealed_secret = EXCLUDED.sealed_secret, last_step = NULL WHERE tessera_totp.confirmed_at IS NULL
       RETURNING 1 AS saved`,
      [subject, sealedSecret],
      'write',
    );
    return rows.length === 1;
  }

  async confirmTotp(subject: string, step: number, at: Date): Promise<boolean> {
    const rows = await this.#run('confirmTotp', 'UPDATE tessera_totp SET confirmed_at = $3, last_step = $2 WHERE subject = $1 AND confirmed_at IS NULL RETURNING 1 AS confirmed', [subject, step, toTimestampParam(requireValidDate(at, 'at'))], 'write');
    return rows.length === 1;
  }

  async useTotpStep(subject: string, step: number): Promise<boolean> {
    const rows = await this.#run(
      'useTotpStep',
      'UPDATE tessera_totp SET last_step = $2 WHERE subject = $1 AND confirmed_at IS NOT NULL AND (last_step IS NULL OR last_step < $2) RETURNING 1 AS used',
      [subject, step],
      'write',
    );
    return rows.length === 1;
  }

  async removeTotp(subject: string): Promise<void> {
    await this.#run('removeTotp', 'DELETE FROM tessera_totp WHERE subject = $1', [subject], 'write');
  }

  async replaceRecoveryCodes(subject: string, digests: readonly string[]): Promise<void> {
    // One statement: the old codes go and the new ones arrive together, or neither.
    await this.#run(
      'replaceRecoveryCodes',
      `WITH gone AS (DELETE FROM tessera_recovery_codes WHERE subject = $1)
       INSERT INTO tessera_recovery_codes (subject, digest) SELECT $1, unnest($2::text[])`,
      [subject, [...digests]],
      'write',
    );
  }

  async useRecoveryCode(subject: string, digest: string, at: Date): Promise<boolean> {
    const rows = await this.#run(
      'useRecoveryCode',
      'UPDATE tessera_recovery_codes SET used_at = $3 WHERE subject = $1 AND digest = $2 AND used_at IS NULL RETURNING 1 AS used',
      [subject, digest, toTimestampParam(requireValidDate(at, 'at'))],
      'write',
    );
    return rows.length === 1;
  }

  async countRecoveryCodes(subject: string): Promise<number> {
    const rows = await this.#run<{ remaining: string | number }>('countRecoveryCodes', 'SELECT count(*) AS remaining FROM tessera_recovery_codes WHERE subject = $1 AND used_at IS NULL', [subject]);
    return Number(rows[0]?.remaining ?? 0);
  }

  async addPasskey(passkey: StoredPasskey): Promise<void> {
    await this.#run(
      'addPasskey',
      `INSERT INTO tessera_passkeys (id, subject, public_key, counter, transports, created_at) VALUES ($1, $2, $3, $4, $5::jsonb, $6)`,
      [passkey.id, passkey.subject, passkey.publicKey, passkey.counter, JSON.stringify([...passkey.transports]), toTimestampParam(requireValidDate(passkey.createdAt, 'createdAt'))],
      'write',
    );
  }

  async findPasskey(id: string): Promise<StoredPasskey | undefined> {
    const rows = await this.#run<PasskeyRow>('findPasskey', `SELECT ${PASSKEY_COLUMNS} FROM tessera_passkeys WHERE id = $1`, [id]);
    return rows[0] === undefined ? undefined : toPasskey(rows[0]);
  }

  async listPasskeys(subject: string): Promise<readonly StoredPasskey[]> {
    const rows = await this.#run<PasskeyRow>('listPasskeys', `SELECT ${PASSKEY_COLUMNS} FROM tessera_passkeys WHERE subject = $1 ORDER BY created_at, id`, [subject]);
    return rows.map(toPasskey);
  }

  async usePasskeyCounter(id: string, previous: number, next: number, at: Date): Promise<boolean> {
    const rows = await this.#run(
      'usePasskeyCounter',
      'UPDATE tessera_passkeys SET counter = $3, last_used_at = $4 WHERE id = $1 AND counter = $2 RETURNING 1 AS used',
      [id, previous, next, toTimestampParam(requireValidDate(at, 'at'))],
      'write',
    );
    return rows.length === 1;
  }

  async removePasskey(subject: string, id: string): Promise<boolean> {
    const rows = await this.#run('removePasskey', 'DELETE FROM tessera_passkeys WHERE id = $1 AND subject = $2 RETURNING 1 AS removed', [id, subject], 'write');
    return rows.length === 1;
  }

  async putChallenge(challengeHash: string, challenge: StoredChallenge): Promise<void> {
    await this.#run(
      'putChallenge',
      'INSERT INTO tessera_factor_challenges (challenge_hash, purpose, subject, expires_at) VALUES ($1, $2, $3, $4)',
      [challengeHash, challenge.purpose, challenge.subject, toTimestampParam(requireValidDate(challenge.expiresAt, 'expiresAt'))],
      'write',
    );
  }

  async takeChallenge(challengeHash: string): Promise<StoredChallenge | undefined> {
    const rows = await this.#run<{ purpose: string; subject: string | null; expires_at: unknown }>(
      'takeChallenge',
      'DELETE FROM tessera_factor_challenges WHERE challenge_hash = $1 RETURNING purpose, subject, expires_at',
      [challengeHash],
      'write',
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    return { purpose: row.purpose as PasskeyChallengePurpose, subject: row.subject, expiresAt: readTimestamp(row.expires_at) ?? new Date(0) };
  }

  async putPendingSignIn(tokenHash: string, pending: PendingSignIn): Promise<void> {
    await this.#run('putPendingSignIn', 'INSERT INTO tessera_pending_sign_ins (token_hash, subject, expires_at) VALUES ($1, $2, $3)', [tokenHash, pending.subject, toTimestampParam(requireValidDate(pending.expiresAt, 'expiresAt'))], 'write');
  }

  async takePendingSignIn(tokenHash: string): Promise<PendingSignIn | undefined> {
    const rows = await this.#run<{ subject: string; expires_at: unknown }>('takePendingSignIn', 'DELETE FROM tessera_pending_sign_ins WHERE token_hash = $1 RETURNING subject, expires_at', [tokenHash], 'write');
    const row = rows[0];
    return row === undefined ? undefined : { subject: row.subject, expiresAt: readTimestamp(row.expires_at) ?? new Date(0) };
  }

  async markSessionVerified(sessionId: string, subject: string, at: Date): Promise<void> {
    await this.#run(
      'markSessionVerified',
      `INSERT INTO tessera_session_factors (session_id, subject, verified_at) VALUES ($1, $2, $3)
       ON CONFLICT (session_id) DO UPDATE SET verified_at = GREATEST(tessera_session_factors.verified_at, EXCLUDED.verified_at)`,
      [sessionId, subject, toTimestampParam(requireValidDate(at, 'at'))],
      'write',
    );
  }

  async sessionVerifiedAt(sessionId: string): Promise<Date | undefined> {
    const rows = await this.#run<{ verified_at: unknown }>('sessionVerifiedAt', 'SELECT verified_at FROM tessera_session_factors WHERE session_id = $1', [sessionId]);
    return readTimestamp(rows[0]?.verified_at) ?? undefined;
  }

  /**
   * Deletes challenges and pending sign-ins past their expiry (they are refused anyway); run it
   * now and then. Answers how many rows went.
   *
   * @example
   * await store.purgeExpired(new Date());
   */
  async purgeExpired(now: Date): Promise<number> {
    const at = toTimestampParam(requireValidDate(now, 'now'));
    const challenges = await this.#run('purgeExpiredChallenges', 'DELETE FROM tessera_factor_challenges WHERE expires_at <= $1 RETURNING 1 AS gone', [at], 'write');
    const pending = await this.#run('purgeExpiredPendingSignIns', 'DELETE FROM tessera_pending_sign_ins WHERE expires_at <= $1 RETURNING 1 AS gone', [at], 'write');
    return challenges.length + pending.length;
  }
}

function toPasskey(row: PasskeyRow): StoredPasskey {
  const transports = readJson(row.transports);
  return {
    id: row.id,
    subject: row.subject,
    publicKey: row.public_key,
    counter: Number(row.counter),
    transports: Array.isArray(transports) ? transports.filter((t): t is string => typeof t === 'string') : [],
    createdAt: readTimestamp(row.created_at) ?? new Date(0),
    lastUsedAt: readTimestamp(row.last_used_at),
  };
}
