import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { getCookie, TesseraError, type RequestContext } from '../index.js';
import { encodeBase64 } from '../internal/primitives.js';

const encoder = new TextEncoder();

function signature(value: string, secret: string): string {
  return encodeBase64(hmac(sha256, encoder.encode(secret), encoder.encode(value)));
}

/** Compares two strings in time that depends only on their length. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/**
 * A cookie value carrying its HMAC-SHA256 signature (`<value>.<signature>`), so the client
 * cannot change it unnoticed. The value itself is readable: sign, do not hide.
 *
 * @example
 * setCookie(answer, 'cart', signCookieValue(cartId, process.env.COOKIE_SECRET!));
 */
export function signCookieValue(value: string, secret: string): string {
  if (secret.length < 32) throw new TesseraError('COOKIE_INVALID', 'A cookie signing secret needs at least 32 characters.');
  return `${value}.${signature(value, secret)}`;
}

/**
 * The value of a signed cookie when its signature is right (checked in constant time), else
 * undefined. Accepts any of `secrets`, so a secret can be rotated (sign with the first).
 *
 * @example
 * const cartId = readSignedCookie(ctx, 'cart', [process.env.COOKIE_SECRET!]);
 */
export function readSignedCookie(ctx: Pick<RequestContext, 'header'>, name: string, secrets: readonly string[]): string | undefined {
  const raw = getCookie(ctx, name);
  if (raw === undefined) return undefined;
  const dot = raw.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const value = raw.slice(0, dot);
  const given = raw.slice(dot + 1);
  let valid = false;
  for (const secret of secrets) valid = constantTimeEqual(signature(value, secret), given) || valid;
  return valid ? value : undefined;
}
