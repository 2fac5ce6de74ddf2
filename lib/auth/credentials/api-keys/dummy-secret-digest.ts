import { digestApiKeySecret } from './hash-api-key-secret.js';

/**
 * The digest an unknown (or unreadable) key id's presented secret is compared against, so that
 * a request for an id that does not exist does the same hashing and the same constant-time
 * comparison as a wrong secret for one that does (SPEC "API keys" 6).
 *
 * Its value does not matter for security: the label below is not a valid 43-character secret, and
 * the authenticator refuses an unknown id whatever the comparison says. Internal; not re-exported.
 *
 * @example
 * const matches = constantTimeEqual(presented, found?.secretDigest ?? DUMMY_SECRET_DIGEST);
 */
export const DUMMY_SECRET_DIGEST: Uint8Array = digestApiKeySecret('tessera: dummy API key secret for unknown ids');
