/**
 * A parsed query string: one value per key, or an array when the key repeats.
 *
 * @example
 * const q: QueryRecord = { tag: ['a', 'b'], page: '2' };
 */
export type QueryRecord = Readonly<Record<string, string | readonly string[]>>;

/**
 * Parses a raw query string (no `?`). Repeated keys collect into arrays, so a schema such as
 * `z.object({ tag: z.array(z.string()) })` can accept `?tag=a&tag=b`.
 *
 * @example
 * parseQuery('page=2&tag=a&tag=b'); // { page: '2', tag: ['a', 'b'] }
 */
export function parseQuery(search: string): QueryRecord {
  const record: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  if (search === '') return record;
  for (const [key, value] of new URLSearchParams(search)) {
    const existing = record[key];
    if (existing === undefined) record[key] = value;
    else if (typeof existing === 'string') record[key] = [existing, value];
    else existing.push(value);
  }
  return record;
}
