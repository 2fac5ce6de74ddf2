import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { describe, expect, it } from 'vitest';
import { decodeBase64, encodeBase64 } from '../common/base64.js';
import { idempotencyMaterial } from './request-fingerprint.js';
import { openAnswer, sealXChaCha } from './sealed-answer.js';

// The v2 seal checked against what it must equal, from outside @noble/ciphers: the published
// vectors of draft-irtf-cfrg-xchacha-03, and an oracle built on OpenSSL's ChaCha20 and
// ChaCha20-Poly1305 (node:crypto). No other XChaCha20-Poly1305 is installed (no libsodium); the
// oracle adds only the draft's composition: XChaCha20-Poly1305(K, N) is ChaCha20-Poly1305 under
// HChaCha20(K, N[0..16]) with the nonce 0x00000000 || N[16..24] (§2.3).

const hex = (text: string) => new Uint8Array(Buffer.from(text.replace(/\s+/g, ''), 'hex'));
const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** "expand 32-byte k": ChaCha's state words 0-3. */
const SIGMA = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574];

/**
 * HChaCha20 (draft §2.2) from one ChaCha20 block of OpenSSL's: OpenSSL's 16-byte IV is state
 * words 12-15 (the counter, then the 96-bit nonce), where HChaCha20 puts its 128-bit nonce, and a
 * block is the permuted state plus the state. HChaCha20's output is the permuted state's words 0-3
 * and 12-15: the block's minus the state's (the constants, the nonce), word by word.
 */
function hchacha20(key: Uint8Array, nonce16: Uint8Array): Uint8Array {
  const block = createCipheriv('chacha20', key, nonce16).update(new Uint8Array(64));
  const words = new DataView(block.buffer, block.byteOffset, 64);
  const nonce = new DataView(nonce16.buffer, nonce16.byteOffset, 16);
  const out = new DataView(new ArrayBuffer(32));
  for (let i = 0; i < 4; i++) {
    out.setUint32(4 * i, (words.getUint32(4 * i, true) - (SIGMA[i] ?? 0)) >>> 0, true);
    out.setUint32(16 + 4 * i, (words.getUint32(48 + 4 * i, true) - nonce.getUint32(4 * i, true)) >>> 0, true);
  }
  return new Uint8Array(out.buffer);
}

/** XChaCha20-Poly1305 by OpenSSL (draft §2.3): ciphertext then the 16-byte tag. */
function opensslXChaCha(key: Uint8Array, nonce24: Uint8Array, plain: Uint8Array, aad?: Uint8Array): Uint8Array {
  const iv = new Uint8Array(12);
  iv.set(nonce24.subarray(16, 24), 4);
  const cipher = createCipheriv('chacha20-poly1305', hchacha20(key, nonce24.subarray(0, 16)), iv, { authTagLength: 16 });
  if (aad !== undefined) cipher.setAAD(aad, { plaintextLength: plain.length });
  return new Uint8Array(Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]));
}

// draft-irtf-cfrg-xchacha-03 §2.2.1 (HChaCha20) and §A.3.1 (AEAD_XChaCha20_Poly1305).
const HCHACHA = {
  key: hex('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f'),
  nonce: hex('000000090000004a0000000031415927'),
  subkey: '82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc',
};
const AEAD = {
  plaintext: new TextEncoder().encode("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it."),
  aad: hex('50515253c0c1c2c3c4c5c6c7'),
  key: hex('808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f'),
  nonce: hex('404142434445464748494a4b4c4d4e4f5051525354555657'),
  ciphertext: `bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb
    731c7f1b0b4aa6440bf3a82f4eda7e39ae64c6708c54c216cb96b72e1213b452
    2f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff9
    21f9664c97637da9768812f615c68b13b52e`.replace(/\s+/g, ''),
  tag: 'c0875924c1c7987947deafd8780acf49',
};

/** The ciphertext and tag of a v2 record, in hex. */
function sealedHex(record: string): { version: string; nonce: string; ciphertext: string; tag: string } {
  const [version = '', nonce = '', data = ''] = record.split('.');
  const bytes = decodeBase64(data) ?? new Uint8Array();
  return { version, nonce: toHex(decodeBase64(nonce) ?? new Uint8Array()), ciphertext: toHex(bytes.subarray(0, -16)), tag: toHex(bytes.subarray(-16)) };
}

describe('the OpenSSL oracle against the draft\u2019s vectors (so it may judge the seal)', () => {
  it('gives HChaCha20\u2019s published subkey (§2.2.1)', () => {
    expect(toHex(hchacha20(HCHACHA.key, HCHACHA.nonce)), 'HChaCha20 subkey').toBe(HCHACHA.subkey);
  });

  it('gives the published AEAD_XChaCha20_Poly1305 ciphertext and tag (§A.3.1)', () => {
    expect(toHex(opensslXChaCha(AEAD.key, AEAD.nonce, AEAD.plaintext, AEAD.aad)), 'ciphertext || tag').toBe(AEAD.ciphertext + AEAD.tag);
  });
});

describe('the v2 seal against the draft and the oracle', () => {
  it('@noble/ciphers\u2019 xchacha20poly1305 gives the published vector (§A.3.1, with its associated data)', () => {
    expect(toHex(xchacha20poly1305(AEAD.key, AEAD.nonce, AEAD.aad).encrypt(AEAD.plaintext)), 'ciphertext || tag').toBe(AEAD.ciphertext + AEAD.tag);
  });

  it('sealXChaCha, fed the vector\u2019s key, nonce and plaintext, gives its ciphertext, and the oracle\u2019s tag without associated data', () => {
    const record = sealXChaCha(AEAD.plaintext, AEAD.key, AEAD.nonce);
    const withoutAad = toHex(opensslXChaCha(AEAD.key, AEAD.nonce, AEAD.plaintext));
    expect(sealedHex(record), 'the record\u2019s parts').toEqual({ version: 'v2', nonce: toHex(AEAD.nonce), ciphertext: AEAD.ciphertext, tag: withoutAad.slice(-32) });
  });

  it('sealXChaCha agrees with the oracle on 200 random keys, nonces and plaintexts of 0 to 2,000 bytes', () => {
    const disagreements: number[] = [];
    for (let i = 0; i < 200; i++) {
      const key = new Uint8Array(randomBytes(32));
      const nonce = new Uint8Array(randomBytes(24));
      const plain = new Uint8Array(randomBytes(i === 0 ? 0 : (i * 97) % 2001));
      const ours = sealedHex(sealXChaCha(plain, key, nonce));
      if (ours.ciphertext + ours.tag !== toHex(opensslXChaCha(key, nonce, plain))) disagreements.push(i);
    }
    expect(disagreements, 'draws where the seal and OpenSSL differ').toEqual([]);
  });

  it('openAnswer opens a v2 record the oracle sealed under the key derived independently (SHA-256 of the label and the material)', async () => {
    const material = idempotencyMaterial('POST', '/orders', 'user:alice', '8e03978e-40d5-43e8-bc93-6894a57f9324');
    const key = new Uint8Array(createHash('sha256').update(`tessera idempotency answer key xchacha20-poly1305\n${material}`).digest());
    const nonce = new Uint8Array(randomBytes(24));
    const record = `v2.${encodeBase64(nonce)}.${encodeBase64(opensslXChaCha(key, nonce, new TextEncoder().encode('{"status":201}')))}`;
    expect(await openAnswer(record, material), 'the text OpenSSL sealed').toBe('{"status":201}');
  });
});
