/**
 * Test-only: builds arbitrary (including hostile) compact JWS strings with an HMAC implementation
 * and a base64url encoder that are independent of the ones under test, so a shared bug cannot make
 * a test pass. Not exported from the package.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256, sha384, sha512 } from '@noble/hashes/sha2.js';

/** Secrets just above each algorithm's minimum, and the manual clock's start. @example craft(GOOD_HEADER, goodPayload(), SECRET_256) */
export const SECRET_256 = 'test-secret-0123456789-abcdefghijkl'; // 35 bytes
export const SECRET_384 = 'test-secret-0123456789-abcdefghijklmnopqrstuvwxyz-ABCD'; // 54 bytes
export const SECRET_512 = 'test-secret-0123456789-abcdefghijklmnopqrstuvwxyz-ABCDEFGHIJKLMNOPQRSTUVWXYZ'; // 77 bytes
export const T0_MS = Date.parse('2026-01-01T00:00:00Z');
export const T0 = T0_MS / 1000;

/**
 * Independent base64url: the platform's btoa plus character substitution.
 *
 * @example
 * b64url(new Uint8Array([255])); // '_w'
 */
export function b64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * base64url of a JSON value (or of a raw string when `raw` is true).
 *
 * @example
 * part({ alg: 'HS256' });
 */
export function part(value: unknown, raw = false): string {
  return b64url(new TextEncoder().encode(raw ? String(value) : JSON.stringify(value)));
}

/**
 * HMAC signature segment of `signingInput` with the given hash size.
 *
 * @example
 * macSegment('a.b', SECRET_256, 256);
 */
export function macSegment(signingInput: string, secret: string, bits: 256 | 384 | 512 = 256): string {
  const hash = bits === 256 ? sha256 : bits === 384 ? sha384 : sha512;
  return b64url(hmac(hash, new TextEncoder().encode(secret), new TextEncoder().encode(signingInput)));
}

/**
 * A compact JWS from already-encoded header and payload segments, MACed with `secret`.
 *
 * @example
 * craftRaw(part({ alg: 'HS256', typ: 'at+jwt' }), part({ exp: T0 + 60 }), SECRET_256);
 */
export function craftRaw(headerSegment: string, payloadSegment: string, secret: string, bits: 256 | 384 | 512 = 256): string {
  const input = `${headerSegment}.${payloadSegment}`;
  return `${input}.${macSegment(input, secret, bits)}`;
}

/**
 * A compact JWS from header and payload objects, MACed with `secret`.
 *
 * @example
 * craft({ alg: 'HS256', typ: 'at+jwt' }, { sub: 'u1', exp: T0 + 60 });
 */
export function craft(header: unknown, payload: unknown, secret = SECRET_256, bits: 256 | 384 | 512 = 256): string {
  return craftRaw(part(header), part(payload), secret, bits);
}

/** A header that passes every check for HS256. @example craft(GOOD_HEADER, goodPayload()) */
export const GOOD_HEADER = Object.freeze({ alg: 'HS256', typ: 'at+jwt' });

/**
 * A payload that passes every check (with no issuer/audience configured) at T0.
 *
 * @example
 * craft(GOOD_HEADER, goodPayload({ roles: ['admin'] }));
 */
export function goodPayload(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { sub: 'user-1', roles: ['reader'], iat: T0, exp: T0 + 900, ...extra };
}
