import { decodeBase64, encodeBase64 } from '../../internal/primitives.js';
import { AuthConfigError } from '../shared/auth-config-error.js';

const encoder = new TextEncoder();

interface BoxKey {
  /** 8 hex characters of the key's SHA-256: which key sealed a value, so an old key still opens it after a rotation. */
  readonly id: string;
  readonly key: CryptoKey;
  /** The same bytes as an HKDF key, for keys derived per purpose. */
  readonly hkdf: CryptoKey;
}

/**
 * Seals the second factors' secrets (TOTP keys) with AES-256-GCM through Web Crypto, under the
 * app's `secondFactors.encryptionKeys`: the first seals, every one opens (rotation: put the new
 * key first, keep the old ones until every secret was re-sealed). Sealed text:
 * `v1.<key id>.<iv>.<ciphertext>` (base64url), a fresh 96-bit IV each time. The associated data
 * is the purpose and the subject, so a sealed value copied onto another account does not open.
 * A database read alone (a backup, an injection) yields no TOTP secret.
 *
 * @example
 * const box = await SecretBox.fromKeys([process.env.FACTOR_KEY!]);
 * const sealed = await box.seal(secret, 'totp', 'user_1');
 * const opened = await box.open(sealed, 'totp', 'user_1');
 */
export class SecretBox {
  readonly #keys: readonly BoxKey[];

  private constructor(keys: readonly BoxKey[]) {
    this.#keys = keys;
  }

  /**
   * A box from base64url keys of exactly 32 random bytes each (`openssl rand -base64 32`).
   *
   * @throws AuthConfigError for no key, or a key that is not 32 bytes of base64url.
   * @example
   * const box = await SecretBox.fromKeys([current, previous]);
   */
  static async fromKeys(encoded: readonly string[]): Promise<SecretBox> {
    if (!Array.isArray(encoded) || encoded.length === 0) throw new AuthConfigError('secondFactors.encryptionKeys needs at least one key (32 random bytes, base64url)');
    const keys: BoxKey[] = [];
    for (const text of encoded) {
      const raw = typeof text === 'string' ? (decodeBase64(text.replace(/=+$/, ''), 'url') ?? decodeBase64(text.replace(/=+$/, ''), 'standard')) : undefined;
      if (raw === undefined || raw.length !== 32) throw new AuthConfigError('each secondFactors.encryptionKeys entry must be 32 random bytes in base64url (openssl rand -base64 32)');
      const bytes = Uint8Array.from(raw);
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
      const id = [...digest.slice(0, 4)].map((b) => b.toString(16).padStart(2, '0')).join('');
      const key = await crypto.subtle.importKey('raw', bytes, 'AES-GCM', false, ['encrypt', 'decrypt']);
      const hkdf = await crypto.subtle.importKey('raw', bytes, 'HKDF', false, ['deriveKey']);
      keys.push({ id, key, hkdf });
    }
    return new SecretBox(keys);
  }

  /**
   * Seals `plain` for (`purpose`, `subject`) under the first key.
   *
   * @example
   * const sealed = await box.seal(secret, 'totp', 'user_1'); // 'v1.1a2b3c4d.<iv>.<ciphertext>'
   */
  async seal(plain: Uint8Array, purpose: string, subject: string): Promise<string> {
    const { id, key } = this.#keys[0] as BoxKey;
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad(purpose, subject) }, key, Uint8Array.from(plain)));
    return `v1.${id}.${encodeBase64(iv)}.${encodeBase64(sealed)}`;
  }

  /**
   * Opens what {@link seal} made for the same purpose and subject.
   *
   * @throws Error for a value of another format, key, purpose or subject, or one tampered with: a
   * server fault (never a client's wrong code), and its message names no value.
   * @example
   * const secret = await box.open(record.sealedSecret, 'totp', 'user_1');
   */
  async open(sealed: string, purpose: string, subject: string): Promise<Uint8Array> {
    const [version, id, ivText, dataText] = sealed.split('.');
    const key = this.#keys.find((candidate) => candidate.id === id);
    const iv = ivText === undefined ? undefined : decodeBase64(ivText);
    const data = dataText === undefined ? undefined : decodeBase64(dataText);
    if (version !== 'v1' || key === undefined || iv === undefined || data === undefined) throw new Error('second factors: a sealed secret of an unknown format or key');
    try {
      return new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: Uint8Array.from(iv), additionalData: aad(purpose, subject) }, key.key, Uint8Array.from(data)));
    } catch {
      throw new Error('second factors: a sealed secret did not open (tampered, or sealed for another account)');
    }
  }

  /**
   * An HMAC-SHA256 key derived from the first encryption key for `purpose` (recovery-code
   * digests), so one configured secret serves both and neither output reveals the other.
   *
   * @example
   * const macKey = await box.derivedMacKey('recovery codes');
   */
  async derivedMacKey(purpose: string): Promise<CryptoKey> {
    const { hkdf } = this.#keys[0] as BoxKey;
    return crypto.subtle.deriveKey(
      { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: encoder.encode(`tessera second factors\n${purpose}`) },
      hkdf,
      { name: 'HMAC', hash: 'SHA-256', length: 256 },
      false,
      ['sign'],
    );
  }
}

function aad(purpose: string, subject: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(JSON.stringify([purpose, subject]));
}
