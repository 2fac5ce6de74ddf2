/**
 * A session as a refresh-token store's optional `listSessions` reports it: the family's current
 * token (neither rotated nor revoked) with the metadata it was created with. Times a store did
 * not record are null (the service then falls back to the session id's start).
 *
 * @example
 * const row: StoredSession = { familyId, expiresAt, issuedAt: new Date(), sessionStartedAt: new Date(), userAgent: 'Firefox/140', clientAddress: '203.0.113.7' };
 */
export interface StoredSession {
  readonly familyId: string;
  readonly expiresAt: Date;
  readonly issuedAt: Date | null;
  readonly sessionStartedAt: Date | null;
  readonly userAgent: string | null;
  readonly clientAddress: string | null;
}
