import type { Clock } from '../../../index.js';
import type { NewRefreshToken, RefreshTokenRecord, RefreshTokenSuccessor } from './refresh-token-record.js';
import type { StoredSession } from '../state/stored-session.js';

/**
 * A stored refresh token as the in-memory stores' `records()` snapshot shows it: every field
 * present, for assertions in tests.
 *
 * @example
 * const active = store.records().filter((r) => r.rotatedAt === null && r.revokedAt === null);
 */
export interface StoredRefreshToken extends RefreshTokenRecord {
  readonly tokenHash: string;
  readonly familyId: string | null;
  readonly rotatedAt: Date | null;
  readonly revokedAt: Date | null;
  readonly issuedAt: Date | null;
  readonly sessionStartedAt: Date | null;
  readonly userAgent: string | null;
  readonly clientAddress: string | null;
}

/** Internal row: times as epoch milliseconds, so no Date object is ever shared with a caller. */
interface Row {
  readonly subject: string;
  readonly familyId: string | null;
  readonly expiresAtMs: number;
  rotatedAtMs: number | null;
  revokedAtMs: number | null;
  readonly issuedAtMs: number | null;
  readonly sessionStartedAtMs: number | null;
  readonly userAgent: string | null;
  readonly clientAddress: string | null;
}

/**
 * The shared engine of the in-memory refresh-token stores. Every method is synchronous and does
 * its whole read-check-write without yielding, which is what makes each store operation atomic
 * under interleaved async callers: JavaScript runs one synchronous block at a time.
 * Not exported from the package; use the store classes.
 *
 * @example
 * const table = new InMemoryRefreshTokenTable(systemClock);
 * table.create(hash, { subject: 'u', familyId: 'f', expiresAt });
 * table.markRotated(hash); // true, then false forever after
 */
export class InMemoryRefreshTokenTable {
  readonly #rows = new Map<string, Row>();
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  create(tokenHash: string, token: NewRefreshToken): void {
    const row = toRow(token);
    checkHash(tokenHash);
    // Hashes of 256-bit random tokens never collide; a duplicate is a caller bug. The message
    // leaves the hash out, like every message here.
    if (this.#rows.has(tokenHash)) throw new Error('A refresh token with this hash is already stored');
    this.#rows.set(tokenHash, row);
  }

  find(tokenHash: string): RefreshTokenRecord | undefined {
    const row = this.#rows.get(tokenHash);
    return row === undefined ? undefined : toRecord(tokenHash, row);
  }

  markRotated(tokenHash: string): boolean {
    const row = this.#rows.get(tokenHash);
    if (row === undefined || row.rotatedAtMs !== null || row.revokedAtMs !== null) return false;
    row.rotatedAtMs = this.#clock.now();
    return true;
  }

  rotate(oldTokenHash: string, next: RefreshTokenSuccessor): boolean {
    // Validate everything before changing anything, so a bad successor leaves the old token alone.
    const successor = toRow(next);
    checkHash(next.tokenHash);
    if (this.#rows.has(next.tokenHash)) throw new Error('A refresh token with this hash is already stored');
    const old = this.#rows.get(oldTokenHash);
    if (old === undefined || old.rotatedAtMs !== null || old.revokedAtMs !== null) return false;
    old.rotatedAtMs = this.#clock.now();
    this.#rows.set(next.tokenHash, successor);
    return true;
  }

  revoke(tokenHash: string): void {
    const row = this.#rows.get(tokenHash);
    // Already revoked keeps its first revokedAt: the audit trail shows when it really ended.
    if (row !== undefined && row.revokedAtMs === null) row.revokedAtMs = this.#clock.now();
  }

  revokeAllForSubject(subject: string): void {
    this.#revokeWhere((row) => row.subject === subject);
  }

  revokeEverySession(): void {
    this.#revokeWhere(() => true);
  }

  revokeFamily(familyId: string): void {
    this.#revokeWhere((row) => row.familyId !== null && row.familyId === familyId);
  }

  /** Each family with a token revoked at or after `sinceMs`, with its latest revocation (ms). */
  revokedFamiliesSince(sinceMs: number): Map<string, number> {
    const families = new Map<string, number>();
    for (const row of this.#rows.values()) {
      if (row.familyId === null || row.revokedAtMs === null || row.revokedAtMs < sinceMs) continue;
      families.set(row.familyId, Math.max(families.get(row.familyId) ?? row.revokedAtMs, row.revokedAtMs));
    }
    return families;
  }

  /** The subject's sessions: each family's current token (neither rotated nor revoked), in insertion order. */
  listSessions(subject: string): readonly StoredSession[] {
    const sessions: StoredSession[] = [];
    for (const row of this.#rows.values()) {
      if (row.subject !== subject || row.familyId === null || row.rotatedAtMs !== null || row.revokedAtMs !== null) continue;
      sessions.push(
        Object.freeze({
          familyId: row.familyId,
          expiresAt: new Date(row.expiresAtMs),
          issuedAt: dateOrNull(row.issuedAtMs),
          sessionStartedAt: dateOrNull(row.sessionStartedAtMs),
          userAgent: row.userAgent,
          clientAddress: row.clientAddress,
        }),
      );
    }
    return sessions;
  }

  /** A frozen copy of every row, in insertion order. */
  records(): readonly StoredRefreshToken[] {
    return Object.freeze([...this.#rows].map(([tokenHash, row]) => toRecord(tokenHash, row)));
  }

  #revokeWhere(matches: (row: Row) => boolean): void {
    const now = this.#clock.now();
    for (const row of this.#rows.values()) {
      if (row.revokedAtMs === null && matches(row)) row.revokedAtMs = now;
    }
  }
}

function checkHash(tokenHash: unknown): void {
  if (typeof tokenHash !== 'string' || tokenHash === '') throw new TypeError('tokenHash must be a non-empty string');
}

function toRow(token: NewRefreshToken): Row {
  if (typeof token.subject !== 'string') throw new TypeError('subject must be a string');
  const expiresAtMs = token.expiresAt instanceof Date ? token.expiresAt.getTime() : Number.NaN;
  if (!Number.isFinite(expiresAtMs)) throw new TypeError('expiresAt must be a valid Date');
  const familyId = typeof token.familyId === 'string' ? token.familyId : null;
  return {
    subject: token.subject,
    familyId,
    expiresAtMs,
    rotatedAtMs: null,
    revokedAtMs: null,
    issuedAtMs: optionalTime(token.issuedAt, 'issuedAt'),
    sessionStartedAtMs: optionalTime(token.sessionStartedAt, 'sessionStartedAt'),
    userAgent: optionalText(token.userAgent, 'userAgent'),
    clientAddress: optionalText(token.clientAddress, 'clientAddress'),
  };
}

function optionalTime(value: Date | undefined, name: string): number | null {
  if (value === undefined) return null;
  const ms = value instanceof Date ? value.getTime() : Number.NaN;
  if (!Number.isFinite(ms)) throw new TypeError(`${name} must be a valid Date when given`);
  return ms;
}

function optionalText(value: string | null | undefined, name: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string when given`);
  return value;
}

function dateOrNull(ms: number | null): Date | null {
  return ms === null ? null : new Date(ms);
}

function toRecord(tokenHash: string, row: Row): StoredRefreshToken {
  return Object.freeze({
    tokenHash,
    subject: row.subject,
    familyId: row.familyId,
    expiresAt: new Date(row.expiresAtMs),
    rotatedAt: row.rotatedAtMs === null ? null : new Date(row.rotatedAtMs),
    revokedAt: row.revokedAtMs === null ? null : new Date(row.revokedAtMs),
    issuedAt: dateOrNull(row.issuedAtMs),
    sessionStartedAt: dateOrNull(row.sessionStartedAtMs),
    userAgent: row.userAgent,
    clientAddress: row.clientAddress,
  });
}
