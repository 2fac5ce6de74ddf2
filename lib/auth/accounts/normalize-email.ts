import { BadRequestException } from '../../index.js';
import { normalizeIdentifier } from '../shared/normalize-identifier.js';

/** RFC 5321's limit on a forward path (254 octets once the angle brackets are removed). */
const MAX_EMAIL_LENGTH = 254;

// One '@', something on both sides, a dot-free-or-dotted domain, no whitespace or controls.
// Deliberately loose: the verification mail is the real check that the address works.
const EMAIL_SHAPE = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u;

// Read before any normalisation: NFKC turns an unpaired surrogate into U+FFFD (and a database's
// UTF-8 encoder does the same), so `x\uD800@...` would be stored as `x\uFFFD@...`.
const UNPAIRED_SURROGATE = /\p{Cs}/u;
// Characters that are not seen, or that reorder what is seen: format characters (zero-width
// space and joiners, soft hyphen, byte-order mark, tags), the default-ignorable ones (Hangul
// fillers, variation selectors), the bidirectional controls (U+202E right-to-left override,
// U+2066-2069 isolates) and private-use characters. An address holding one shows as another
// address, in a mail client or an admin's screen; no mail provider hands out such addresses.
const INVISIBLE = /[\p{Cf}\p{Co}\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/u;

/** Why an address is refused, or undefined with the address in its stored form. */
type EmailReading = { readonly email: string; readonly refusal?: undefined } | { readonly email?: undefined; readonly refusal: string };

/** The refusals' messages, by cause: the caller learns what to fix, and nothing about accounts. */
export const EMAIL_REFUSALS = Object.freeze({
  invalid: 'Invalid e-mail address',
  invisible: 'The e-mail address contains an invisible or text-direction character',
  malformed: 'The e-mail address contains a malformed character (an unpaired UTF-16 surrogate)',
});

function readEmail(raw: unknown): EmailReading {
  if (typeof raw !== 'string') return { refusal: EMAIL_REFUSALS.invalid };
  if (UNPAIRED_SURROGATE.test(raw)) return { refusal: EMAIL_REFUSALS.malformed };
  if (INVISIBLE.test(raw)) return { refusal: EMAIL_REFUSALS.invisible };
  const email = normalizeIdentifier(raw);
  if (email.length === 0 || email.length > MAX_EMAIL_LENGTH || !EMAIL_SHAPE.test(email)) return { refusal: EMAIL_REFUSALS.invalid };
  const domain = email.slice(email.indexOf('@') + 1);
  if (domain.startsWith('.') || domain.endsWith('.') || domain.includes('..')) return { refusal: EMAIL_REFUSALS.invalid };
  return { email };
}

/**
 * The form in which accounts store and look up an e-mail address: {@link normalizeIdentifier}
 * (NFKC, trimmed, lower-cased: the form the stores and the sign-in throttle use too), or
 * undefined when it is not an address. The whole address, not only the domain: RFC 5321 lets a
 * server treat the local part case-sensitively, but no common provider does, people type
 * addresses in any case, and the credential stores compare identifiers the same way, so sign-in
 * finds the account whatever case was typed at sign-up. Refused (undefined): an unpaired
 * surrogate, an invisible or bidirectional-control character anywhere in the address, and
 * anything that is not `local@domain`.
 *
 * @example
 * normalizeEmail('  Ada@Example.COM ');      // 'ada@example.com'
 * normalizeEmail('ａｄａ@example.com');       // 'ada@example.com' (fullwidth)
 * normalizeEmail('ada\u200B@example.com');   // undefined (a zero-width space)
 * normalizeEmail('not an address');          // undefined
 */
export function normalizeEmail(raw: unknown): string | undefined {
  return readEmail(raw).email;
}

/**
 * {@link normalizeEmail}, or a 400 problem saying why the address is refused (`field` names the
 * body member). Used by every account operation that takes an address.
 *
 * @example
 * const address = emailOrRefuse(body.email); // BadRequestException for 'x\u202E@example.com'
 */
export function emailOrRefuse(raw: unknown, field = 'email'): string {
  const reading = readEmail(raw);
  if (reading.email === undefined) throw new BadRequestException(reading.refusal, { field });
  return reading.email;
}
