/**
 * The one form in which a sign-in identifier (an e-mail address, a user name) is compared,
 * stored and counted: Unicode compatibility-normalised (NFKC), trimmed and lower-cased, then
 * normalised again (lower-casing can leave a form NFKC would change, and the fold must be
 * idempotent). Accounts (`normalizeEmail`), the account and credential stores' lookups and the
 * sign-in throttle's keys all use it, so two spellings are one account exactly when they share
 * one throttle budget: fullwidth `ｖｉｃｔｉｍ@example.com` is `victim@example.com` everywhere,
 * never a second account counted on the first one's budget (issue 48).
 *
 * Why NFKC and lower case for the whole address: people type addresses in any case and from any
 * keyboard, no common provider treats the local part case-sensitively, and a second account
 * under a look-alike spelling is how an attacker squats a name. A store of your own must compare
 * identifiers in this form too (`findByIdentifier(normalizeIdentifier(raw))`), never SQL
 * `lower()`, whose result depends on the database's collation.
 *
 * @example
 * normalizeIdentifier(' Ada@Example.COM ');  // 'ada@example.com'
 * normalizeIdentifier('ＡＤＡ＠example.com'); // 'ada@example.com'
 */
export function normalizeIdentifier(identifier: string): string {
  return identifier.normalize('NFKC').trim().toLowerCase().normalize('NFKC');
}
