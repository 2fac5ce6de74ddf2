import { API_KEY_ID_LENGTH, API_KEY_LENGTH, API_KEY_PREFIX, API_KEY_SECRET_LENGTH } from './api-key-format.js';

/**
 * The parts of a well-formed API key. Only `secret` is secret; `id` names the stored record.
 *
 * @example
 * const parts: ParsedApiKey = { prefix: 'tsk', id: '0123456789abcdef01234567', secret };
 */
export interface ParsedApiKey {
  readonly prefix: typeof API_KEY_PREFIX;
  readonly id: string;
  readonly secret: string;
}

// Fixed offsets. The secret's base64url alphabet contains `_` and `-`, so splitting the key on
// `_` would mis-cut any secret that contains `_`; every field sits at a known position instead.
const ID_START = API_KEY_PREFIX.length + 1;
const ID_END = ID_START + API_KEY_ID_LENGTH;
const SECRET_START = ID_END + 1;
const SECRET_END = SECRET_START + API_KEY_SECRET_LENGTH;

// 43 base64url characters carry 258 bits for 256 bits of data: the last character's two low bits
// are unused and must be zero in the canonical encoding. These are the 16 characters whose 6-bit
// value is a multiple of 4. Refusing the other 48 makes every secret have exactly one spelling.
const FINAL_SECRET_CHARS = 'AEIMQUYcgkosw048';

/**
 * Reads an API key, accepting exactly `<prefix>_<24 lowercase hex>_<43 canonical base64url>` and
 * nothing else: no surrounding whitespace, no uppercase hex, no padding, no other length. Returns
 * `undefined` for anything else, so the caller can refuse a malformed key before any store query.
 *
 * @example
 * parseApiKey(generateApiKey().key);   // { prefix: 'tsk', id: '…', secret: '…' }
 * parseApiKey(' tsk_…');               // undefined
 */
export function parseApiKey(text: string): ParsedApiKey | undefined {
  if (typeof text !== 'string' || text.length !== API_KEY_LENGTH) return undefined;
  if (!text.startsWith(API_KEY_PREFIX) || text.charCodeAt(ID_START - 1) !== UNDERSCORE) return undefined;
  if (text.charCodeAt(SECRET_START - 1) !== UNDERSCORE) return undefined;
  for (let i = ID_START; i < ID_END; i++) {
    if (!isLowerHex(text.charCodeAt(i))) return undefined;
  }
  for (let i = SECRET_START; i < SECRET_END; i++) {
    if (!isBase64UrlChar(text.charCodeAt(i))) return undefined;
  }
  if (!FINAL_SECRET_CHARS.includes(text.charAt(SECRET_END - 1))) return undefined;
  return Object.freeze({
    prefix: API_KEY_PREFIX,
    id: text.slice(ID_START, ID_END),
    secret: text.slice(SECRET_START, SECRET_END),
  });
}

const UNDERSCORE = 0x5f;

function isLowerHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66);
}

function isBase64UrlChar(c: number): boolean {
  return (
    (c >= 0x41 && c <= 0x5a) || // A-Z
    (c >= 0x61 && c <= 0x7a) || // a-z
    (c >= 0x30 && c <= 0x39) || // 0-9
    c === 0x2d || // -
    c === UNDERSCORE
  );
}
