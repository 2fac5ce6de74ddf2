/** RFC 5321's limit on a forward path (254 octets once the angle brackets are removed). */
const MAX_EMAIL_LENGTH = 254;

// One '@', something on both sides, a dot-free-or-dotted domain, no whitespace or controls.
// Deliberately loose: the verification mail is the real check that the address works.
const EMAIL_SHAPE = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u;

/**
 * The form in which accounts store and look up an e-mail address: surrounding whitespace
 * trimmed, the whole address lower-cased (locale-independent), or undefined when it is not an
 * address. The whole address, not only the domain: RFC 5321 lets a server treat the local part
 * case-sensitively, but no common provider does, people type addresses in any case, and the
 * existing credential stores compare identifiers the same way, so sign-in finds the account
 * whatever case was typed at sign-up.
 *
 * @example
 * normalizeEmail('  Ada@Example.COM '); // 'ada@example.com'
 * normalizeEmail('not an address');      // undefined
 */
export function normalizeEmail(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const email = raw.trim().toLowerCase();
  if (email.length === 0 || email.length > MAX_EMAIL_LENGTH) return undefined;
  if (!EMAIL_SHAPE.test(email)) return undefined;
  const domain = email.slice(email.indexOf('@') + 1);
  if (domain.startsWith('.') || domain.endsWith('.') || domain.includes('..')) return undefined;
  return email;
}
