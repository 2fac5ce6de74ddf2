import { hmac } from '@noble/hashes/hmac.js';
import { sha256, sha384, sha512 } from '@noble/hashes/sha2.js';
import { HMAC_ALGORITHMS } from './hmac-algorithm.js';
import type { HmacAlgorithm } from './hmac-algorithm.js';
import { assertSecretLength } from './secret-length.js';

/**
 * A secret turned into a ready-to-use HMAC: the signer and the verifier share it, so signing and
 * verification cannot drift apart.
 *
 * Why @noble/hashes and not Web Crypto: `crypto.subtle.verify` is asynchronous and on Node runs
 * each call as a thread-pool job, ~30-60 µs for a 300-byte token on the project's 2-core machine
 * (jose builds on it), while noble's synchronous pure-JS SHA-2 takes ~3-6 µs once the keyed state
 * is precomputed, close to node:crypto's ~3-5 µs, and runs unchanged on Node, Bun, Deno and
 * Workers without a `node:*` import. Measured by bench/jwt-verify.ts.
 *
 * @example
 * const key = createHmacKey(secret, 'HS256');
 * const mac = key.macAscii('eyJhbGciOiJIUzI1NiJ9.e30', 24);
 */
export interface HmacKey {
  readonly algorithm: HmacAlgorithm;
  /** Output size of the MAC in bytes (32, 48 or 64). */
  readonly macBytes: number;
  /**
   * HMAC of the first `end` characters of `input` taken as bytes, or `undefined` if any of them is
   * not ASCII (a JWS signing input always is; truncating a wider character to one byte would let
   * two different strings share a MAC).
   */
  macAscii(input: string, end: number): Uint8Array | undefined;
}

/** The part of noble's HMAC object this module relies on. */
interface KeyedState {
  _cloneInto(to?: KeyedState): KeyedState;
  update(bytes: Uint8Array): unknown;
  digestInto(out: Uint8Array): void;
}

const HASHES = { HS256: sha256, HS384: sha384, HS512: sha512 } as const;

/**
 * Builds an {@link HmacKey}, refusing secrets below the algorithm's minimum so that no code path
 * can ever sign or verify with a weak key, whoever calls it.
 *
 * @example
 * const key = createHmacKey('a'.repeat(32), 'HS256');
 */
export function createHmacKey(secret: string, algorithm: HmacAlgorithm): HmacKey {
  assertSecretLength(secret, algorithm);
  const keyBytes = new TextEncoder().encode(secret);
  // The inner and outer padded-key blocks are hashed once here; each MAC then starts from a copy
  // of that state, saving two of the ~6 SHA-256 compressions a typical token needs.
  const base: KeyedState = hmac.create(HASHES[algorithm], keyBytes);
  keyBytes.fill(0);
  // `_cloneInto` copies the keyed state into an existing object without allocating; `clone()`
  // allocates fresh hash objects and doubled the cost in measurement. It is part of noble's typed
  // surface; the jose interop tests would fail loudly if a future version changed its meaning.
  const scratch = base._cloneInto();
  const { macBytes } = HMAC_ALGORITHMS[algorithm];
  let inputBuffer = new Uint8Array(1024);

  return Object.freeze({
    algorithm,
    macBytes,
    macAscii(input: string, end: number): Uint8Array | undefined {
      if (end > inputBuffer.length) inputBuffer = new Uint8Array(Math.max(end, inputBuffer.length * 2));
      for (let i = 0; i < end; i++) {
        const code = input.charCodeAt(i);
        if (code > 0x7f) return undefined;
        inputBuffer[i] = code;
      }
      // Safe to reuse `scratch` and `inputBuffer`: this function never yields, so no other call
      // can interleave between the copy of the keyed state and the digest.
      base._cloneInto(scratch);
      scratch.update(inputBuffer.subarray(0, end));
      const out = new Uint8Array(macBytes);
      scratch.digestInto(out);
      return out;
    },
  });
}
