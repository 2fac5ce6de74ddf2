/**
 * Whether an `If-None-Match` value matches an entity tag: `*`, or any listed tag equal to it by
 * weak comparison (RFC 9110 §13.1.2: a `W/` prefix is ignored on both sides).
 *
 * @example
 * ifNoneMatchMatches('W/"a", "b"', '"a"'); // true
 */
export function ifNoneMatchMatches(header: string, tag: string): boolean {
  if (header.trim() === '*') return true;
  const opaque = tag.replace(/^W\//, '');
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === opaque);
}
