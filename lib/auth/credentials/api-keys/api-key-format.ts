// The wire format of an API key, in one place so that generation, parsing and the tests agree on
// every offset. Format: `<API_KEY_PREFIX>_<id>_<secret>`, fixed length, no variation allowed.

/**
 * The fixed literal every Tessera API key starts with. It lets secret scanners (and people)
 * recognise a leaked key, and lets the parser refuse anything else cheaply.
 *
 * @example
 * key.startsWith(`${API_KEY_PREFIX}_`); // true for every generated key
 */
export const API_KEY_PREFIX = 'tsk';

/**
 * Random bytes in a key id (not secret; it names the record).
 *
 * @example
 * crypto.getRandomValues(new Uint8Array(API_KEY_ID_BYTES));
 */
export const API_KEY_ID_BYTES = 12;

/**
 * Characters of the id: two lowercase hex digits per byte.
 *
 * @example
 * parsed.id.length === API_KEY_ID_LENGTH; // 24
 */
export const API_KEY_ID_LENGTH = API_KEY_ID_BYTES * 2;

/**
 * Random bytes in a key secret: 256 bits, so guessing is out of the question.
 *
 * @example
 * crypto.getRandomValues(new Uint8Array(API_KEY_SECRET_BYTES));
 */
export const API_KEY_SECRET_BYTES = 32;

/**
 * Characters of the secret: unpadded base64url of 32 bytes, ceil(32 * 8 / 6) = 43.
 *
 * @example
 * parsed.secret.length === API_KEY_SECRET_LENGTH; // 43
 */
export const API_KEY_SECRET_LENGTH = 43;

/**
 * Total characters of a key: prefix, `_`, id, `_`, secret. Every valid key has exactly this length.
 *
 * @example
 * generateApiKey().key.length === API_KEY_LENGTH; // 72
 */
export const API_KEY_LENGTH = API_KEY_PREFIX.length + 1 + API_KEY_ID_LENGTH + 1 + API_KEY_SECRET_LENGTH;
