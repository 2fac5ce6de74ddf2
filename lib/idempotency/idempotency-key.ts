import { parseItem } from 'structured-headers';
import { HttpException } from '../http/http-exception.js';

/** The longest key accepted, in characters (Stripe's bound; the draft sets none). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** A key sent without quotes, as Stripe's clients send it: visible ASCII, no quote, no comma. */
const BARE_KEY = /^[\x21\x23-\x2b\x2d-\x7e]+$/;

function invalid(why: string): HttpException {
  return new HttpException(400, `The Idempotency-Key header is malformed: ${why}.`, undefined, undefined, { code: 'IDEMPOTENCY_KEY_INVALID' });
}

/**
 * The key an `Idempotency-Key` header carries, or a 400 for a malformed one. The header is a
 * Structured Field string (`"8e03978e-40d5-43e8-bc93-6894a57f9324"`, RFC 8941 §3.3.3, parsed by
 * `structured-headers`; parameters are ignored); a bare value of visible ASCII without quotes or
 * commas (`8e03978e-…`, as Stripe's clients send it) is taken as it is, so both forms name the
 * same key. Empty, longer than {@link MAX_IDEMPOTENCY_KEY_LENGTH} characters, or more than one
 * header (joined with a comma) is malformed.
 *
 * @example
 * parseIdempotencyKey('"8e03978e-40d5-43e8-bc93-6894a57f9324"'); // '8e03978e-40d5-43e8-bc93-6894a57f9324'
 */
export function parseIdempotencyKey(value: string): string {
  let key: string;
  if (value === '') throw invalid('the key is empty');
  if (value.startsWith('"')) {
    let item: ReturnType<typeof parseItem>;
    try {
      item = parseItem(value);
    } catch {
      throw invalid('not a Structured Field string (one quoted string, sent once)');
    }
    if (typeof item[0] !== 'string') throw invalid('not a Structured Field string');
    key = item[0];
  } else {
    if (!BARE_KEY.test(value)) throw invalid('an unquoted key is visible ASCII without quotes, commas or spaces (or quote it)');
    key = value;
  }
  if (key.length === 0) throw invalid('the key is empty');
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) throw invalid(`the key is longer than ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
  return key;
}
