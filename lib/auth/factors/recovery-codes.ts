import { encodeBase64 } from '../../internal/primitives.js';

/** How many recovery codes one generation makes. @example RECOVERY_CODE_COUNT; // 10 */
export const RECOVERY_CODE_COUNT = 10;

/** Crockford's base32 without I, L, O, U: no two characters a person confuses when copying from paper. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const encoder = new TextEncoder();

/** Characters of a code: 24 of base32, 120 bits, above ASVS 6.5.2's 112 (so a standard hash may store it). */
const CODE_LENGTH = 24;

/**
 * Ten fresh recovery codes, `xxxxxx-xxxxxx-xxxxxx-xxxxxx` in lower-case Crockford base32: 24
 * random characters, 120 bits each, from Web Crypto. Shown to their owner once; only their
 * digests are stored (see {@link recoveryCodeDigest}).
 *
 * @example
 * generateRecoveryCodes(); // ['7k2m9q-xd4t1v-...', ...]
 */
export function generateRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  const codes: string[] = [];
  for (let n = 0; n < count; n++) {
    // 256 is a multiple of 32, so `byte % 32` is uniform.
    const bytes = crypto.getRandomValues(new Uint8Array(CODE_LENGTH));
    const chars = [...bytes].map((byte) => ALPHABET[byte % 32]).join('');
    codes.push((chars.match(/.{6}/g) as string[]).join('-'));
  }
  return codes;
}

/**
 * A code as typed, in the one form its digest is made of: case, spaces and dashes dropped, and
 * the letters people misread (i, l as 1; o as 0) folded. Undefined when it cannot be a code.
 *
 * @example
 * normalizeRecoveryCode(' 7K2M9Q XD4T1V-... '); // '7k2m9qxd4t1v...'
 */
export function normalizeRecoveryCode(input: string): string | undefined {
  if (typeof input !== 'string' || input.length > 64) return undefined;
  const folded = input.toLowerCase().replace(/[\s-]/g, '').replace(/[il]/g, '1').replace(/o/g, '0');
  if (folded.length !== CODE_LENGTH) return undefined;
  for (const char of folded) if (!ALPHABET.includes(char)) return undefined;
  return folded;
}

/**
 * The stored form of a recovery code: HMAC-SHA256 under a key derived from the app's factor
 * encryption key, base64url. A keyed hash rather than Argon2id on purpose: the codes are random
 * (120 bits), not chosen by people, so a slow hash buys nothing against guessing, while a digest
 * that is the same every time lets the store find and spend a code in one atomic statement (one
 * winner when two requests race: better-auth#7177). The key means a stolen table alone cannot
 * even be checked against guesses.
 *
 * @example
 * const digest = await recoveryCodeDigest(macKey, 'user_1', normalizeRecoveryCode(typed)!);
 */
export async function recoveryCodeDigest(macKey: CryptoKey, subject: string, normalized: string): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', macKey, encoder.encode(JSON.stringify([subject, normalized])));
  return encodeBase64(new Uint8Array(mac));
}
