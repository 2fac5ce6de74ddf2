/**
 * Compares two byte arrays in time that depends only on their length, never on where they first
 * differ, so a MAC check leaks nothing about how close a forged signature came. The length is not
 * secret here (a signature's size is fixed by the algorithm), so a length mismatch returns early.
 *
 * @example
 * constantTimeEqual(expectedMac, presentedMac); // true only if every byte matches
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}
