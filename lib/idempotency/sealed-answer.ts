import { decodeBase64, encodeBase64 } from '../common/base64.js';
import { sha256Digest } from './sha256-digest.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** Separates the answer key from the id, which hashes the same material. */
const DOMAIN = 'tessera idempotency answer key\n';

/**
 * The AES-256-GCM key an answer is sealed with, derived from what names it (the route, the caller
 * and the Idempotency-Key). The store keeps only the id, a different hash of that material, so
 * it cannot open what it keeps: a stored answer that carries a secret (a new API key's) is no use
 * to someone who reads the store without the client's key. That holds as far as the key cannot be
 * guessed, which is why clients should send random keys (UUIDs), as the draft recommends.
 *
 * @example
 * const key = await answerKey(JSON.stringify(['POST', '/orders', 'user:u_1', '8e03978e-…']));
 */
export async function answerKey(material: string): Promise<CryptoKey> {
  // The key's bytes are hashed synchronously (one Web Crypto round trip fewer); the import stays
  // Web Crypto's, as the seal does. The derivation is unchanged: answers stored before open.
  const digest = await sha256Digest(encoder.encode(DOMAIN + material));
  return crypto.subtle.importKey('raw', digest as Uint8Array<ArrayBuffer>, 'AES-GCM', false, ['encrypt', 'decrypt']);
}

const IV_BYTES = 12;
/** IVs cut from one CSPRNG call: on Node each `getRandomValues` costs ~5-10 µs whatever its size. */
const IVS_PER_DRAW = 64;
let drawn: Uint8Array<ArrayBuffer> = new Uint8Array(0);
let next = 0;

/** A fresh 96-bit IV: the next 12 unused bytes of a block of random bytes drawn when the last is spent; no byte is used twice. */
function freshIv(): Uint8Array<ArrayBuffer> {
  if (next === drawn.byteLength) {
    drawn = crypto.getRandomValues(new Uint8Array(IV_BYTES * IVS_PER_DRAW));
    next = 0;
  }
  const iv = drawn.slice(next, next + IV_BYTES);
  next += IV_BYTES;
  return iv;
}

/**
 * Encrypts an answer for the store: `v1.<iv>.<ciphertext>` (base64url), a fresh 96-bit IV each time.
 *
 * @example
 * const sealed = await sealAnswer(JSON.stringify(recorded), key);
 */
export async function sealAnswer(text: string, key: CryptoKey): Promise<string> {
  const iv = freshIv();
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, encoder.encode(text)));
  return `v1.${encodeBase64(iv)}.${encodeBase64(sealed)}`;
}

/**
 * Decrypts what {@link sealAnswer} made; throws on anything else (a tampered or foreign record),
 * so a replay is never a guess.
 *
 * @example
 * const text = await openAnswer(claim.answer, key);
 */
export async function openAnswer(sealed: string, key: CryptoKey): Promise<string> {
  const [version, ivText, dataText] = sealed.split('.');
  const iv = ivText === undefined ? undefined : decodeBase64(ivText);
  const data = dataText === undefined ? undefined : decodeBase64(dataText);
  if (version !== 'v1' || iv === undefined || data === undefined) throw new Error('idempotency store: a stored answer of an unknown format');
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: iv as Uint8Array<ArrayBuffer> }, key, data as Uint8Array<ArrayBuffer>);
  return decoder.decode(plain);
}
