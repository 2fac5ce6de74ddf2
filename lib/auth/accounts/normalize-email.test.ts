import { describe, expect, it } from 'vitest';
import { normalizeEmail } from './normalize-email.js';

describe('normalizeEmail', () => {
  it('trims and lower-cases the whole address', () => {
    expect(normalizeEmail('  Ada.Lovelace@Example.COM\t')).toBe('ada.lovelace@example.com');
  });

  it.each(['', 'ada', '@example.com', 'ada@', 'a da@example.com', 'ada@@example.com', 'ada@example..com', 'ada@.example.com', 'ada\u0000@example.com', `${'a'.repeat(250)}@x.io`, 42, undefined])(
    'refuses %j',
    (value) => {
      expect(normalizeEmail(value)).toBeUndefined();
    },
  );
});
