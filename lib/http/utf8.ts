import { BadRequestException } from './http-exception.js';

// Both drop one leading byte order mark (RFC 8259 lets a parser ignore it). The lossy decoder
// turns every malformed sequence into U+FFFD, so text without one came from valid UTF-8; only text
// with one is decoded again by the fatal decoder, which throws for bytes that are not UTF-8 and
// gives the same text for a U+FFFD the client sent. Deno's fatal decoder is slower than its lossy
// one (create route in process: ~4,000 more instructions per request, ~5%); on Bun and Node the
// two cost the same (docs/architecture.md, "The fetch path's cost").
const lossy = new TextDecoder();
const fatal = new TextDecoder('utf-8', { fatal: true });

/**
 * Bytes as UTF-8 text, or a 400 for bytes that are not UTF-8 (a stray or overlong byte, a
 * truncated sequence, an encoded surrogate): the one decoding of request bodies on every adapter.
 * A U+FFFD the client sent (EF BF BD) is kept as it is; one leading byte order mark is dropped.
 *
 * @example
 * decodeUtf8(new Uint8Array([0x68, 0x69])); // 'hi'
 * decodeUtf8(new Uint8Array([0xff]));       // throws a BadRequestException (400)
 */
export function decodeUtf8(bytes: Uint8Array): string {
  const text = lossy.decode(bytes);
  if (!text.includes('\uFFFD')) return text;
  try {
    return fatal.decode(bytes);
  } catch {
    throw notUtf8();
  }
}

/**
 * The 400 for a body that is not valid UTF-8.
 *
 * @example
 * throw notUtf8();
 */
export function notUtf8(): BadRequestException {
  return new BadRequestException('The body is not valid UTF-8.');
}

/**
 * Whether `text` takes more than `limit` bytes in UTF-8, counted only when its length leaves a
 * doubt: every UTF-16 unit is 1 to 3 bytes (a surrogate pair 4 for two units).
 *
 * @example
 * utf8LengthExceeds('é', 1); // true
 */
export function utf8LengthExceeds(text: string, limit: number): boolean {
  if (text.length > limit) return true;
  if (text.length * 3 <= limit) return false;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
    if (bytes > limit) return true;
  }
  return false;
}
