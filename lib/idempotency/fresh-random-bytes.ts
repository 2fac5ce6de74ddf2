/** The block drawn from the CSPRNG at once: 64 of the largest cut (a 24-byte XChaCha20 nonce). */
const DRAW_BYTES = 24 * 64;
let drawn: Uint8Array<ArrayBuffer> = new Uint8Array(0);
let next = 0;

/**
 * `length` fresh random bytes (at most 1,536) for a seal's IV or nonce, cut from a block drawn by
 * `crypto.getRandomValues` when the last is spent: on Node each draw costs ~5-10 µs whatever its
 * size, so one draw serves 64 seals. No byte is handed out twice: what is left of a block too
 * short for the next cut is dropped, never reused.
 *
 * @example
 * const nonce = freshRandomBytes(24);
 */
export function freshRandomBytes(length: number): Uint8Array<ArrayBuffer> {
  if (!Number.isInteger(length) || length < 1 || length > DRAW_BYTES) throw new RangeError(`freshRandomBytes: ${length} bytes asked, 1 to ${DRAW_BYTES} given`);
  if (drawn.byteLength - next < length) {
    drawn = crypto.getRandomValues(new Uint8Array(DRAW_BYTES));
    next = 0;
  }
  const bytes = drawn.slice(next, next + length);
  next += length;
  return bytes;
}
