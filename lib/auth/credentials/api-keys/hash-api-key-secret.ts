import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

// Why a plain SHA-256 and not a slow password hash: the secret is 256 random bits, so there is
// nothing for a brute-force attack to enumerate; a fast hash keeps per-request verification in
// the microseconds while a stolen store still does not reveal usable keys.

const encoder = new TextEncoder();

/**
 * The raw 32-byte SHA-256 digest of a key secret's UTF-8 bytes. This is what the authenticator
 * compares, in constant time, against the stored hash.
 *
 * @example
 * digestApiKeySecret(parsed.secret).length; // 32
 */
export function digestApiKeySecret(secret: string): Uint8Array {
  return sha256(encoder.encode(secret));
}

/**
 * The value stored as `ApiKeyRecord.secretHash`: lowercase hex SHA-256 of the secret (64 chars).
 *
 * @example
 * const { id, secret } = parseApiKey(key)!;
 * store.add({ id, secretHash: hashApiKeySecret(secret), claims });
 */
export function hashApiKeySecret(secret: string): string {
  return bytesToHex(digestApiKeySecret(secret));
}
