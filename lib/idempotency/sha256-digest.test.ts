import { describe, expect, it } from 'vitest';
import { sha256Digest, sha256Hex, SYNC_SHA256_MAX_BYTES } from './sha256-digest.js';

/** Web Crypto's SHA-256 in hex: what every id and fingerprint was before the synchronous hash, and must stay. */
async function webCryptoHex(bytes: Uint8Array): Promise<string> {
  return Buffer.from(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)).toString('hex');
}

function bytesOf(length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (i * 31 + 7) & 255);
}

describe('sha256Digest', () => {
  it('hashes the FIPS 180-2 "abc" vector', () => {
    expect(sha256Hex(new TextEncoder().encode('abc')), 'SHA-256("abc")').toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('answers without a promise up to the bound, so a small input costs no Web Crypto round trip', () => {
    expect(sha256Digest(bytesOf(SYNC_SHA256_MAX_BYTES)), 'an input at the bound is hashed synchronously').toBeInstanceOf(Uint8Array);
    expect(sha256Digest(bytesOf(SYNC_SHA256_MAX_BYTES + 1)), 'an input over the bound goes to Web Crypto').toBeInstanceOf(Promise);
  });

  it.each([0, 1, 64, 1000, SYNC_SHA256_MAX_BYTES, SYNC_SHA256_MAX_BYTES + 1, 100_000])('gives Web Crypto\u2019s digest for %i bytes, on either side of the bound', async (length) => {
    const bytes = bytesOf(length);
    expect(await sha256Hex(bytes), `SHA-256 of ${length} bytes`).toBe(await webCryptoHex(bytes));
  });
});
