import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeUtf8, utf8LengthExceeds } from './utf8.js';

/** The status and message decodeUtf8 throws for `bytes`, or the text it gives. */
function outcome(bytes: number[]): string | { status: number; message: string } {
  try {
    return decodeUtf8(new Uint8Array(bytes));
  } catch (error) {
    const { status, message } = error as { status: number; message: string };
    return { status, message };
  }
}

const REFUSED = { status: 400, message: 'The body is not valid UTF-8.' };

describe('decodeUtf8: bytes that are not UTF-8 are refused, never rewritten', () => {
  it('refuses bytes that never occur in UTF-8 (FF FE, a UTF-16 byte order mark)', () => {
    expect(outcome([0x22, 0xff, 0xfe, 0x22])).toEqual(REFUSED);
  });

  it('refuses an overlong encoding of "/" (C0 AF)', () => {
    expect(outcome([0x22, 0xc0, 0xaf, 0x22])).toEqual(REFUSED);
  });

  it('refuses a truncated sequence (E2 82, the start of "€")', () => {
    expect(outcome([0x22, 0xe2, 0x82, 0x22])).toEqual(REFUSED);
  });

  it('refuses a truncated sequence at the very end', () => {
    expect(outcome([0x22, 0x22, 0xe2, 0x82])).toEqual(REFUSED);
  });

  it('refuses an encoded surrogate (ED A0 80, U+D800)', () => {
    expect(outcome([0x22, 0xed, 0xa0, 0x80, 0x22])).toEqual(REFUSED);
  });

  it('keeps a U+FFFD the client sent (EF BF BD) as it is', () => {
    expect(outcome([0x22, 0xef, 0xbf, 0xbd, 0x22])).toBe('"\uFFFD"');
  });

  it('refuses a stray byte next to a U+FFFD the client sent (the text holds U+FFFD either way)', () => {
    expect(outcome([0x22, 0xef, 0xbf, 0xbd, 0xff, 0x22])).toEqual(REFUSED);
  });

  it('drops one leading UTF-8 byte order mark, and keeps a second one', () => {
    expect(outcome([0xef, 0xbb, 0xbf, 0x7b, 0x7d])).toBe('{}');
    expect(outcome([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x7b, 0x7d])).toBe('\uFEFF{}');
  });

  it('refuses exactly what Node’s own validator (simdutf) refuses, and gives the bytes back otherwise', () => {
    // Mostly valid text with a stray byte now and then, so both outcomes are exercised.
    const piece = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 4 }).map((text) => [...new TextEncoder().encode(text)]), fc.integer({ min: 0x80, max: 0xff }).map((byte) => [byte]));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const bytes = new Uint8Array(pieces.flat());
        const valid = isUtf8(bytes);
        const result = outcome([...bytes]);
        if (!valid) {
          expect(result, `${[...bytes]} was accepted`).toEqual(REFUSED);
          return;
        }
        const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
        expect([...new TextEncoder().encode(result as string)], `${[...bytes]} did not round-trip`).toEqual([...bytes.subarray(bom)]);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('utf8LengthExceeds', () => {
  it('counts 1, 2, 3 and 4 bytes per character exactly at the limit', () => {
    const text = 'aé€😀'; // 1 + 2 + 3 + 4 = 10 bytes
    expect([utf8LengthExceeds(text, 10), utf8LengthExceeds(text, 9)]).toEqual([false, true]);
  });

  it('counts a lone surrogate as the 3 bytes of its replacement', () => {
    expect([utf8LengthExceeds('\ud800', 3), utf8LengthExceeds('\ud800', 2)]).toEqual([false, true]);
  });

  it('agrees with TextEncoder on random strings', () => {
    const alphabet = ['a', 'é', '€', '😀', '\ud800', '\udc00'];
    for (let run = 0; run < 500; run++) {
      let text = '';
      for (let i = 0; i < 1 + (run % 9); i++) text += alphabet[(run * 7 + i * 13) % alphabet.length];
      const bytes = new TextEncoder().encode(text).byteLength;
      expect([utf8LengthExceeds(text, bytes), utf8LengthExceeds(text, bytes - 1)], JSON.stringify(text)).toEqual([false, true]);
    }
  });
});

