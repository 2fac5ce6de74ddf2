/**
 * Strict base64url (RFC 4648 §5, unpadded, as RFC 7515 requires for JWS). Written here rather
 * than using `atob`/`Buffer` because those are lenient: they accept padding, whitespace, `+` and
 * `/`, and non-zero trailing bits, so several different strings would decode to the same bytes.
 * Rejecting all of those makes every accepted token have exactly one spelling.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Char code -> 6-bit value, or -1 for anything outside the alphabet (including '=' and whitespace). */
const DECODE_TABLE: Int8Array = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) table[ALPHABET.charCodeAt(i)] = i;
  return table;
})();

/**
 * Encodes bytes as unpadded base64url.
 *
 * @example
 * encodeBase64Url(new TextEncoder().encode('{"alg":"HS256"}')); // 'eyJhbGciOiJIUzI1NiJ9'
 */
export function encodeBase64Url(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]! + ALPHABET[(n >>> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = (bytes[i] ?? 0) << 16;
    out += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]!;
  } else if (rest === 2) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8);
    out += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]! + ALPHABET[(n >>> 6) & 63]!;
  }
  return out;
}

/**
 * Decodes `input.slice(start, end)` as strict unpadded base64url, or returns `undefined` when it
 * is not the canonical encoding of some byte string: a character outside the alphabet, a length
 * of 1 mod 4 (no byte string encodes to that), or non-zero unused bits in the last character.
 * Taking a range avoids allocating a substring per JWT segment.
 *
 * @example
 * decodeBase64Url('aGk'); // Uint8Array [104, 105]
 * decodeBase64Url('aGl'); // undefined: non-zero trailing bits
 */
export function decodeBase64Url(input: string, start = 0, end = input.length): Uint8Array | undefined {
  const length = end - start;
  const tail = length & 3;
  if (length < 0 || tail === 1) return undefined;
  const out = new Uint8Array((length >>> 2) * 3 + (tail === 0 ? 0 : tail - 1));
  let o = 0;
  let i = start;
  const fullEnd = end - tail;
  for (; i < fullEnd; i += 4) {
    const a = sextet(input, i);
    const b = sextet(input, i + 1);
    const c = sextet(input, i + 2);
    const d = sextet(input, i + 3);
    // Any invalid character makes at least one sextet negative, which sets the sign bit of the OR.
    if ((a | b | c | d) < 0) return undefined;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = n >>> 16;
    out[o++] = (n >>> 8) & 255;
    out[o++] = n & 255;
  }
  if (tail === 2) {
    const a = sextet(input, i);
    const b = sextet(input, i + 1);
    if ((a | b) < 0 || (b & 15) !== 0) return undefined;
    out[o] = (a << 2) | (b >>> 4);
  } else if (tail === 3) {
    const a = sextet(input, i);
    const b = sextet(input, i + 1);
    const c = sextet(input, i + 2);
    if ((a | b | c) < 0 || (c & 3) !== 0) return undefined;
    const n = (a << 10) | (b << 4) | (c >>> 2);
    out[o++] = n >>> 8;
    out[o] = n & 255;
  }
  return out;
}

function sextet(input: string, index: number): number {
  const code = input.charCodeAt(index);
  return code < 128 ? (DECODE_TABLE[code] ?? -1) : -1;
}
