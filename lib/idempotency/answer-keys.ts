import { sha256Digest } from './sha256-digest.js';

const encoder = new TextEncoder();

/*
 * Each key an answer may be sealed with is the SHA-256 of its own domain label and the material
 * (the JSON array of the route, the caller and the Idempotency-Key, see `idempotencyMaterial`).
 * The labels differ at their 31st character ('\n' against ' ') and neither starts with '[', as
 * the material does, so the id (the SHA-256 of the material alone, which the store keeps) and the
 * two keys hash three inputs that can never be equal: the store cannot open what it keeps, and no
 * key's bytes serve two algorithms.
 */
/** AES-256-GCM's label: v1 records (sealed so since the seal was added; unchanged, so they open). */
const AES_GCM_LABEL = 'tessera idempotency answer key\n';
/** XChaCha20-Poly1305's label: v2 records. */
const XCHACHA_LABEL = 'tessera idempotency answer key xchacha20-poly1305\n';

/**
 * The 32-byte XChaCha20-Poly1305 key of a v2 record, derived from what names the answer.
 * Synchronous (@noble/hashes) for the usual material of a few hundred bytes; a promise when the
 * material is over the synchronous hash's bound (an identity of kilobytes), hashed by Web Crypto.
 *
 * @example
 * const key = xchachaAnswerKey(idempotencyMaterial('POST', '/orders', 'user:u_1', '8e03978e-…'));
 */
export function xchachaAnswerKey(material: string): Uint8Array | Promise<Uint8Array> {
  return sha256Digest(encoder.encode(XCHACHA_LABEL + material));
}

/**
 * The AES-256-GCM key of a v1 record, for Web Crypto (which seals and opens large answers off the
 * event loop). Derived as since the seal was added, so every v1 record ever stored opens.
 *
 * @example
 * const key = await aesGcmAnswerKey(idempotencyMaterial('POST', '/orders', 'user:u_1', '8e03978e-…'));
 */
export async function aesGcmAnswerKey(material: string): Promise<CryptoKey> {
  const digest = await sha256Digest(encoder.encode(AES_GCM_LABEL + material));
  return crypto.subtle.importKey('raw', digest as Uint8Array<ArrayBuffer>, 'AES-GCM', false, ['encrypt', 'decrypt']);
}
