import { headerOf, withHeaders, type Answer } from '../index.js';

/**
 * The answer with `field` added to its `Vary` header (kept once, case-insensitively; `*` stays `*`).
 * Caches must know the answer depends on that request header.
 *
 * @example
 * return addVary(await next(), 'Origin');
 */
export function addVary(outcome: Answer, field: string): Answer {
  const current = headerOf(outcome, 'vary');
  if (current === null || current.trim() === '') return withHeaders(outcome, { vary: field });
  const fields = current.split(',').map((f) => f.trim().toLowerCase());
  if (fields.includes('*') || fields.includes(field.toLowerCase())) return outcome;
  return withHeaders(outcome, { vary: `${current}, ${field}` });
}
