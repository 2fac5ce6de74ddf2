// The PHC string format uses the standard base64 alphabet with the `=` padding removed
// (not the URL-safe alphabet). Written out here rather than via `btoa`/`Buffer` so that decoding
// can be strict in the same way as the Argon2 reference implementation: any character outside
// the alphabet, an impossible length, or non-zero leftover bits makes the whole hash invalid.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

const DECODE_TABLE: Int8Array = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) table[ALPHABET.charCodeAt(i)] = i;
  return table;
})();

/**
 * Encodes bytes as unpadded standard base64, as PHC strings require.
 *
 * @example
 * encodePhcBase64(new TextEncoder().encode('somesalt')); // 'c29tZXNhbHQ'
 */
export function encodePhcBase64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]! + ALPHABET[(n >>> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]! + ALPHABET[(n >>> 6) & 63]!;
  }
  return out;
}

/**
 * Decodes unpadded standard base64, strictly: returns `undefined` for padding, whitespace,
 * URL-safe characters, a length that no byte string encodes to, or a non-canonical last
 * character (unused bits set), so one byte string has exactly one accepted text.
 *
 * @example
 * decodePhcBase64('c29tZXNhbHQ'); // bytes of 'somesalt'
 * decodePhcBase64('c29tZXNhbHQ='); // undefined
 */
export function decodePhcBase64(text: string): Uint8Array | undefined {
  if (text.length % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let accumulator = 0;
  let bits = 0;
  let written = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? DECODE_TABLE[code]! : -1;
    if (value < 0) return undefined;
    accumulator = ((accumulator << 6) | value) & 0xffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[written++] = (accumulator >>> bits) & 0xff;
    }
  }
  if ((accumulator & ((1 << bits) - 1)) !== 0) return undefined;
  return out;
}
