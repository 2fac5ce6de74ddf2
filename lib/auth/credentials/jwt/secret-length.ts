import { AuthConfigError } from '../../shared/auth-config-error.js';
import { HMAC_ALGORITHMS, assertHmacAlgorithm } from './hmac-algorithm.js';
import type { HmacAlgorithm } from './hmac-algorithm.js';

/**
 * Throws {@link AuthConfigError} unless `secret` has at least 32 (HS256), 48 (HS384) or 64 (HS512)
 * bytes once UTF-8 encoded. Bytes, not characters: the HMAC key is the UTF-8 encoding, and a
 * 16-character secret of 2-byte characters is a 32-byte key. The message carries the algorithm,
 * the minimum and the actual byte count, never the secret.
 *
 * @example
 * assertSecretLength(process.env.JWT_SECRET ?? '', 'HS256');
 */
export function assertSecretLength(secret: string, algorithm: HmacAlgorithm): void {
  assertHmacAlgorithm(algorithm);
  if (typeof secret !== 'string') {
    throw new AuthConfigError(`The ${algorithm} secret must be a string, got ${secret === null ? 'null' : typeof secret}`);
  }
  const actual = utf8ByteLength(secret);
  const { minSecretBytes } = HMAC_ALGORITHMS[algorithm];
  if (actual < minSecretBytes) {
    throw new AuthConfigError(
      `${algorithm} requires a secret of at least ${minSecretBytes} bytes (UTF-8), got ${actual} bytes`,
    );
  }
}

/**
 * Counts bytes exactly as TextEncoder would encode them (a lone surrogate becomes the 3-byte
 * U+FFFD), without making a copy of the secret that would then linger until garbage collection.
 */
function utf8ByteLength(value: string): number {
  let bytes = 0;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    } else bytes += 3;
  }
  return bytes;
}
