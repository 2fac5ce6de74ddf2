import { describe, expect, it } from 'vitest';
import { EMAIL_REFUSALS, emailOrRefuse, normalizeEmail } from './normalize-email.js';

describe('normalizeEmail', () => {
  it('trims and lower-cases the whole address', () => {
    expect(normalizeEmail('  Ada.Lovelace@Example.COM\t')).toBe('ada.lovelace@example.com');
  });

  it('folds fullwidth forms onto the address they look like (NFKC), as the sign-in throttle does', () => {
    expect(normalizeEmail('ｖｉｃｔｉｍ＠Example.com'), 'a fullwidth spelling stayed a second address').toBe('victim@example.com');
  });

  it.each(['', 'ada', '@example.com', 'ada@', 'a da@example.com', 'ada@@example.com', 'ada@example..com', 'ada@.example.com', 'ada\u0000@example.com', `${'a'.repeat(250)}@x.io`, 42, undefined])(
    'refuses %j',
    (value) => {
      expect(normalizeEmail(value)).toBeUndefined();
    },
  );
});

describe('emailOrRefuse: characters an address must not hold', () => {
  it.each([
    ['a zero-width space', 'vic\u200Btim@example.com'],
    ['a zero-width joiner', 'victim\u200D@example.com'],
    ['a right-to-left override', 'x\u202E@example.com'],
    ['a left-to-right isolate', '\u2066victim@example.com'],
    ['a right-to-left mark', 'victim@\u200Fexample.com'],
    ['a soft hyphen', 'vic\u00ADtim@example.com'],
    ['a byte-order mark', '\uFEFFvictim@example.com'],
    ['a Hangul filler', 'victim\u3164@example.com'],
    ['a variation selector', 'victim\uFE0F@example.com'],
  ])('refuses %s with a 400 saying so', (_, address) => {
    expect(() => emailOrRefuse(address), `${JSON.stringify(address)} was accepted`).toThrow(expect.objectContaining({ status: 400, message: EMAIL_REFUSALS.invisible, details: { field: 'email' } }));
  });

  it('refuses an unpaired surrogate instead of storing it as U+FFFD', () => {
    expect(() => emailOrRefuse('x\uD800@example.com'), 'a lone high surrogate was accepted').toThrow(expect.objectContaining({ status: 400, message: EMAIL_REFUSALS.malformed }));
    expect(() => emailOrRefuse('x\uDC00@example.com'), 'a lone low surrogate was accepted').toThrow(expect.objectContaining({ status: 400, message: EMAIL_REFUSALS.malformed }));
  });

  it('accepts a well-formed astral character (a surrogate pair) and non-Latin letters', () => {
    expect(emailOrRefuse('😀@example.com'), 'a surrogate pair was taken for an unpaired one').toBe('😀@example.com');
    expect(emailOrRefuse('Ünïcødé@Bücher.example')).toBe('ünïcødé@bücher.example');
  });

  it("names the caller's field", () => {
    expect(() => emailOrRefuse('nope', 'newEmail')).toThrow(expect.objectContaining({ message: EMAIL_REFUSALS.invalid, details: { field: 'newEmail' } }));
  });
});
