import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { decodeBase64, encodeBase64 } from '../common/base64.js';
import { aesGcmAnswerKey, xchachaAnswerKey } from './answer-keys.js';
import { freshRandomBytes } from './fresh-random-bytes.js';

/*
 * An answer is stored sealed, in one of two record formats (base64url parts):
 * - `v2.<nonce>.<ciphertext+tag>`: XChaCha20-Poly1305 (@noble/ciphers: ARX, no secret-indexed
 *   tables, so no cache-timing leak; a 192-bit random nonce, safe to draw at random), computed on
 *   the calling thread. Answers up to SYNC_SEAL_MAX_BYTES.
 * - `v1.<iv>.<ciphertext+tag>`: AES-256-GCM by Web Crypto, off the event loop. Larger answers,
 *   and every answer stored before v2 existed.
 * Each has its own key, derived from what names the answer (answer-keys.ts). Why two: a Web
 * Crypto call is a trip through the runtime's crypto layer (on Node WebIDL checks, a key object,
 * a thread-pool job) that costs ~60-100 µs of CPU whatever the size, where XChaCha20-Poly1305 in
 * JavaScript seals a few hundred bytes in ~20 µs; past the bound its CPU grows past Web Crypto's,
 * and an answer of a megabyte would hold the event loop for tens of milliseconds.
 */

/**
 * The largest answer, in bytes, sealed on the calling thread (v2), as the synchronous hash's bound
 * (sha256-digest.ts). Measured on Node 20 and 24 (bench/seal-threshold.ts; figures in
 * bench/results/idempotent-cost.md, "Where the seal leaves the thread"): XChaCha20-Poly1305 in
 * JavaScript costs ~20 µs of CPU for a few hundred bytes and ~10 µs more per KiB; Web Crypto's
 * AES-GCM, its key imported, ~60-100 µs whatever the size up to 16 KiB. They meet between 4 and
 * 6 KiB; at 4 KiB the seal holds the event loop ~50-65 µs, and is still the cheaper.
 */
export const SYNC_SEAL_MAX_BYTES = 4 * 1024;

const IV_BYTES = 12;
const NONCE_BYTES = 24;
const TAG_BYTES = 16;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The one failure of {@link openAnswer}, whatever did not hold: nothing about the record leaks into it. */
function doesNotOpen(): Error {
  return new Error('idempotency store: a stored answer that does not open (an unknown format, or altered)');
}

/**
 * Seals an answer for the store under keys derived from `material` (see `idempotencyMaterial`):
 * a v2 record (XChaCha20-Poly1305, a fresh 192-bit nonce), made synchronously, for an answer up to
 * {@link SYNC_SEAL_MAX_BYTES}; a v1 record (AES-256-GCM by Web Crypto, a fresh 96-bit IV), a
 * promise, above. (The v2 key of a material over the synchronous hash's bound is hashed by Web
 * Crypto: then a promise too.)
 *
 * @example
 * const sealed = await sealAnswer(JSON.stringify(recorded), idempotencyMaterial('POST', '/orders', 'user:u_1', key));
 */
export function sealAnswer(text: string, material: string): string | Promise<string> {
  const plain = encoder.encode(text);
  if (plain.byteLength > SYNC_SEAL_MAX_BYTES) return sealAesGcm(plain, material);
  const key = xchachaAnswerKey(material);
  if (key instanceof Uint8Array) return sealXChaCha(plain, key, freshRandomBytes(NONCE_BYTES));
  return key.then((bytes) => sealXChaCha(plain, bytes, freshRandomBytes(NONCE_BYTES)));
}

/**
 * A v2 record of `plain` under a 32-byte `key` and a 24-byte `nonce`, no associated data (the key
 * is the answer's own). {@link sealAnswer} gives it a fresh random nonce; exported so that the
 * published test vectors can be fed through it with theirs.
 *
 * @example
 * sealXChaCha(new TextEncoder().encode('{"v":1}'), key, freshRandomBytes(24)); // 'v2.…'
 */
export function sealXChaCha(plain: Uint8Array, key: Uint8Array, nonce: Uint8Array): string {
  return `v2.${encodeBase64(nonce)}.${encodeBase64(xchacha20poly1305(key, nonce).encrypt(plain))}`;
}

async function sealAesGcm(plain: Uint8Array, material: string): Promise<string> {
  const iv = freshRandomBytes(IV_BYTES);
  const key = await aesGcmAnswerKey(material);
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, plain as Uint8Array<ArrayBuffer>));
  return `v1.${encodeBase64(iv)}.${encodeBase64(sealed)}`;
}

/**
 * Opens what {@link sealAnswer} made, a v2 record synchronously, a v1 record (a large answer, or
 * one stored before v2) by Web Crypto. Throws (or rejects) the same error on anything else: an
 * unknown format, a nonce or IV of the wrong length, a tag that does not verify (a tampered
 * record, or one sealed under another material). A replay is never a guess.
 *
 * @example
 * const text = await openAnswer(claim.answer, material);
 */
export function openAnswer(sealed: string, material: string): string | Promise<string> {
  const parts = sealed.split('.');
  const [version, head, body] = parts;
  const nonce = parts.length === 3 && head !== undefined ? decodeBase64(head) : undefined;
  const data = nonce !== undefined && body !== undefined ? decodeBase64(body) : undefined;
  if (nonce === undefined || data === undefined || data.byteLength < TAG_BYTES) throw doesNotOpen();
  if (version === 'v2' && nonce.byteLength === NONCE_BYTES) {
    const key = xchachaAnswerKey(material);
    return key instanceof Uint8Array ? openXChaCha(data, key, nonce) : key.then((bytes) => openXChaCha(data, bytes, nonce));
  }
  if (version === 'v1' && nonce.byteLength === IV_BYTES) return openAesGcm(data, material, nonce);
  throw doesNotOpen();
}

function openXChaCha(data: Uint8Array, key: Uint8Array, nonce: Uint8Array): string {
  let plain: Uint8Array;
  try {
    plain = xchacha20poly1305(key, nonce).decrypt(data);
  } catch {
    throw doesNotOpen();
  }
  return decoder.decode(plain);
}

async function openAesGcm(data: Uint8Array, material: string, iv: Uint8Array): Promise<string> {
  const key = await aesGcmAnswerKey(material);
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: iv as Uint8Array<ArrayBuffer> }, key, data as Uint8Array<ArrayBuffer>);
  } catch {
    throw doesNotOpen();
  }
  return decoder.decode(plain);
}
