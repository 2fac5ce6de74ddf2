import { Secret, TOTP } from 'otpauth';

/** RFC 6238 parameters Tessera uses: the ones every authenticator app reads (SHA-1, 6 digits, 30 s). @example TOTP_PERIOD_SECONDS; // 30 */
export const TOTP_PERIOD_SECONDS = 30;
const DIGITS = 6;
/** 20 random bytes: RFC 4226 §4 asks for at least 128 bits and recommends 160. */
const SECRET_BYTES = 20;
/** One step either side: a code typed as the period turns over, or a phone clock 30 s off, still counts. */
const WINDOW = 1;

/**
 * A new TOTP secret: 20 random bytes, kept as bytes. The base32 text is only how it is shown to
 * the authenticator app (better-auth#9944: a secret handled as text is a different key).
 *
 * @example
 * const secret = generateTotpSecret(); // Uint8Array(20)
 */
export function generateTotpSecret(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(SECRET_BYTES));
}

/**
 * The base32 text (RFC 4648, no padding) of a secret, for typing into an app by hand.
 *
 * @example
 * totpSecretBase32(secret); // 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
 */
export function totpSecretBase32(secret: Uint8Array): string {
  return new Secret({ buffer: copyOf(secret).buffer }).base32;
}

/**
 * The `otpauth://totp/...` URI an authenticator app scans (as a QR code) to enrol the secret.
 *
 * @example
 * totpUri(secret, { issuer: 'Acme', account: 'alice@acme.test' }); // 'otpauth://totp/Acme:alice%40acme.test?issuer=Acme&secret=...'
 */
export function totpUri(secret: Uint8Array, label: { readonly issuer: string; readonly account: string }): string {
  return new TOTP({ issuer: label.issuer, label: label.account, secret: new Secret({ buffer: copyOf(secret).buffer }), algorithm: 'SHA1', digits: DIGITS, period: TOTP_PERIOD_SECONDS }).toString();
}

/**
 * The time step (RFC 6238's T) a code matches within ±1 step of `nowMs`, or undefined. Only
 * 6-digit codes are tried; otpauth compares in constant time. The caller must still refuse a step
 * at or below the last one used (see `SecondFactorStore.useTotpStep`), so a code is never
 * accepted twice.
 *
 * @example
 * const step = matchTotp(secret, '287082', clock.now()); // 59_000_000 / 30_000 ... or undefined
 */
export function matchTotp(secret: Uint8Array, code: string, nowMs: number): number | undefined {
  if (typeof code !== 'string' || !/^[0-9]{6}$/.test(code)) return undefined;
  const delta = TOTP.validate({ token: code, secret: new Secret({ buffer: copyOf(secret).buffer }), algorithm: 'SHA1', digits: DIGITS, period: TOTP_PERIOD_SECONDS, timestamp: nowMs, window: WINDOW });
  if (delta === null) return undefined;
  return TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: nowMs }) + delta;
}

/** A copy on its own ArrayBuffer, so otpauth never sees (or keeps) a view of a larger buffer. */
function copyOf(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return copy;
}
