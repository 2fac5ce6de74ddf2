/**
 * A refresh token as the issuing service asks a store to save it. The store is keyed by the
 * token's SHA-256 hash and never sees the token itself.
 *
 * `familyId` identifies the sign-in the token descends from: every successor made by refresh
 * keeps it, so reuse of a stolen token can revoke exactly that sign-in's tokens. A store without
 * `revokeFamily` may ignore it.
 *
 * @example
 * await store.create(tokenHash, { subject: 'u_42', familyId: crypto.randomUUID(), expiresAt: new Date(Date.now() + 2_592_000_000) });
 */
export interface NewRefreshToken {
  readonly subject: string;
  readonly familyId: string;
  readonly expiresAt: Date;
  /**
   * When this token was issued: the session's sign-in, or the refresh that rotated its
   * predecessor (so the session's current token tells when it was last used). Optional for
   * stores and callers from before session lists; a store without `listSessions` may ignore it.
   */
  readonly issuedAt?: Date | undefined;
  /** When the session (family) started; every successor keeps its sign-in's value. */
  readonly sessionStartedAt?: Date | undefined;
  /** The session's User-Agent at sign-in, already truncated; kept by every successor. */
  readonly userAgent?: string | null | undefined;
  /** The session's client address at sign-in; kept by every successor. */
  readonly clientAddress?: string | null | undefined;
}

/**
 * A stored refresh token as `find` returns it. Its state, in this order of precedence:
 * revoked (`revokedAt` set), expired (`expiresAt` reached), rotated (`rotatedAt` set), else active.
 *
 * @example
 * const record: RefreshTokenRecord = { subject: 'u_42', familyId: 'f1', expiresAt, rotatedAt: null, revokedAt: null };
 */
export interface RefreshTokenRecord {
  readonly subject: string;
  readonly expiresAt: Date;
  readonly familyId?: string | null;
  readonly rotatedAt?: Date | null;
  readonly revokedAt?: Date | null;
  /** See {@link NewRefreshToken}; absent or null from a store that does not keep it. */
  readonly issuedAt?: Date | null;
  readonly sessionStartedAt?: Date | null;
  readonly userAgent?: string | null;
  readonly clientAddress?: string | null;
}

/**
 * The successor handed to a store's optional atomic `rotate`: a new token plus its hash.
 *
 * @example
 * await store.rotate?.(oldHash, { tokenHash: newHash, subject: 'u_42', familyId: 'f1', expiresAt });
 */
export interface RefreshTokenSuccessor extends NewRefreshToken {
  readonly tokenHash: string;
}
