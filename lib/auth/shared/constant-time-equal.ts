/**
 * Compares two byte arrays in time that depends only on their length, not on where they first
 * differ, so a caller cannot learn a stored hash byte by byte from response times.
 * The length itself is not secret for any caller: stored hashes, MACs and digests have fixed lengths.
 *
 * @example
 * constantTimeEqual(derived, stored); // true only if every byte matches
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) {
    // Accumulate with OR instead of returning early; no branch depends on the data.
    difference |= a[i]! ^ b[i]!;
  }
  return difference === 0;
}
