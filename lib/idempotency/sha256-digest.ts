import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/**
 * The largest input, in bytes, hashed on the calling thread. A Web Crypto `digest` costs ~40-60 µs
 * of CPU whatever the size (WebIDL checks, a job, on Node a libuv thread-pool round trip) and more
 * in latency; @noble/hashes (pure JS, as the etag middleware uses) costs a few µs for the id's
 * few hundred bytes and about as much CPU as Web Crypto at 4 KiB (measured on Node 20 and 24 on
 * the project's 2-core machine). Above it the native digest wins and keeps a large body's hashing
 * off the event loop.
 */
export const SYNC_SHA256_MAX_BYTES = 4 * 1024;

/**
 * SHA-256 of `bytes`: the same digest whichever way it is computed, synchronously up to
 * {@link SYNC_SHA256_MAX_BYTES} (then it is no promise, and the caller awaits nothing), by Web
 * Crypto (which every runtime Tessera serves has) above.
 *
 * @example
 * sha256Digest(new TextEncoder().encode('abc')); // Uint8Array(32) [0xba, 0x78, ...]
 */
export function sha256Digest(bytes: Uint8Array): Uint8Array | Promise<Uint8Array> {
  if (bytes.byteLength <= SYNC_SHA256_MAX_BYTES) return sha256(bytes);
  return crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>).then((digest) => new Uint8Array(digest));
}

/**
 * {@link sha256Digest} in lower-case hex (64 characters).
 *
 * @example
 * sha256Hex(new TextEncoder().encode('abc')); // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 */
export function sha256Hex(bytes: Uint8Array): string | Promise<string> {
  const digest = sha256Digest(bytes);
  return digest instanceof Uint8Array ? bytesToHex(digest) : digest.then(bytesToHex);
}
