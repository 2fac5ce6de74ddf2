/**
 * A session (refresh-token family) that ended, as `revokedFamiliesSince` reports it.
 *
 * @example
 * const ended: RevokedFamily = { familyId: '019ab3c4-5d6e-7f01-8a2b-3c4d5e6f7a8b', revokedAt: new Date() };
 */
export interface RevokedFamily {
  readonly familyId: string;
  readonly revokedAt: Date;
}
