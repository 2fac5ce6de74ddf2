/**
 * Conversions between JavaScript values and the columns of the store tables, identical for every
 * driver: timestamps go in as ISO strings (cast `::timestamptz` in the SQL), so no driver's own
 * Date serialisation or time-zone setting is involved; they come back as a Date (pg, PGlite) or a
 * string (other drivers), and either is accepted. Internal to the stores.
 *
 * @example
 * const at = toTimestampParam(new Date(clock.now()));
 * const rotatedAt = readTimestamp(row.rotated_at);
 */
export function toTimestampParam(date: Date): string {
  return date.toISOString();
}

/**
 * A timestamp column as a fresh Date, or null. Throws on something that is not a time, which
 * the caller reports as an unreadable row.
 *
 * @example
 * readTimestamp('2026-01-01T00:00:00Z'); // Date
 */
export function readTimestamp(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? new Date(value.getTime()) : typeof value === 'string' ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) throw new TypeError('a stored timestamp is not a valid time');
  return date;
}

/**
 * A jsonb column: drivers normally parse it; a driver that hands back text gets it parsed here.
 *
 * @example
 * readJson('["posts:read"]'); // ['posts:read']
 */
export function readJson(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

/**
 * Validates a Date argument before it reaches SQL, so a bad value is a TypeError from the store
 * (like the in-memory stores) rather than a database error.
 *
 * @example
 * requireValidDate(token.expiresAt, 'expiresAt');
 */
export function requireValidDate(value: unknown, name: string): Date {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw new TypeError(`${name} must be a valid Date`);
  return value;
}
