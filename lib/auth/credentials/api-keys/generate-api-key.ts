import { bytesToHex } from '@noble/hashes/utils.js';
import { encodeBase64 } from '../../../internal/primitives.js';
import { API_KEY_ID_BYTES, API_KEY_PREFIX, API_KEY_SECRET_BYTES } from './api-key-format.js';
import { hashApiKeySecret } from './hash-api-key-secret.js';

/**
 * A freshly generated key. `key` is shown to its owner once and never stored; only `id` and
 * `secretHash` go to the store.
 *
 * @example
 * const { id, key, secretHash }: GeneratedApiKey = generateApiKey();
 */
export interface GeneratedApiKey {
  readonly id: string;
  readonly key: string;
  readonly secretHash: string;
}

/**
 * Generates a new API key from the runtime's cryptographically secure generator
 * (`crypto.getRandomValues`, available on Node 20+, Workers, Deno and Bun).
 *
 * @example
 * const generated = generateApiKey();
 * await store.add({ id: generated.id, secretHash: generated.secretHash, claims, scopes: ['posts:read'] });
 * return { id: generated.id, key: generated.key }; // shown once
 */
export function generateApiKey(): GeneratedApiKey {
  const id = bytesToHex(crypto.getRandomValues(new Uint8Array(API_KEY_ID_BYTES)));
  const secret = encodeBase64(crypto.getRandomValues(new Uint8Array(API_KEY_SECRET_BYTES)));
  return Object.freeze({
    id,
    key: `${API_KEY_PREFIX}_${id}_${secret}`,
    secretHash: hashApiKeySecret(secret),
  });
}
