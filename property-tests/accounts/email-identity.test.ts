// One address, one account, one sign-in throttle budget (issue 48): for any two spellings, the
// throttle counts them together exactly when the account store takes them for one account.
// Spellings are built from a few base addresses by changing case, fullwidth forms (which NFKC
// folds), surrounding whitespace, and sometimes an invisible, bidirectional-control or unpaired
// surrogate character, or a letter that differs only in form (dotless i, sharp s, a combining
// mark); the sign-in side also gets arbitrary strings.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InMemoryAccountStore } from '../../lib/auth/accounts/in-memory-account-store.js';
import { normalizeEmail } from '../../lib/auth/accounts/normalize-email.js';
import { InMemoryCredentialStore } from '../../lib/auth/sessions/issuing/in-memory-credential-store.js';
import { createThrottleKeys } from '../../lib/auth/throttle/throttle-keys.js';

const keys = createThrottleKeys('a-property-test-secret-long-enough-for-hs256');
const BASES = ['victim@example.com', 'vic.tim@example.com', 'ada@bücher.example', 'straße@example.de', 'istanbul@example.tr'];
const ODD = ['\u200B', '\u202E', '\uD800', '\u00AD', '\u2066', '\u0130', '\u0131', '\u00DF', '\u0301', 'ｉ'];

/** ASCII letters and digits to their fullwidth forms (U+FF01-FF5E), which NFKC folds back. */
const fullwidth = (char: string) => (/^[!-~]$/.test(char) ? String.fromCharCode(char.charCodeAt(0) + 0xfee0) : char);

const spellingArb: fc.Arbitrary<string> = fc
  .record({
    base: fc.constantFrom(...BASES),
    seed: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 40, maxLength: 40 }),
    pad: fc.constantFrom('', ' ', '\t', '\u3000'),
    odd: fc.option(fc.record({ char: fc.constantFrom(...ODD), at: fc.nat() }), { freq: 3 }),
  })
  .map(({ base, seed, pad, odd }) => {
    let text = [...base].map((char, i) => [char, char.toUpperCase(), fullwidth(char), fullwidth(char.toUpperCase())][seed[i % seed.length] ?? 0] ?? char).join('');
    if (odd !== null) {
      const at = odd.at % (text.length + 1);
      text = text.slice(0, at) + odd.char + text.slice(at);
    }
    return `${pad}${text}${pad}`;
  });

describe('accounts and the sign-in throttle share one normalisation', () => {
  it('two spellings share a throttle budget exactly when sign-up makes them one account', async () => {
    await fc.assert(
      fc.asyncProperty(spellingArb, spellingArb, async (a, b) => {
        const [first, second] = [normalizeEmail(a), normalizeEmail(b)];
        fc.pre(first !== undefined && second !== undefined);
        const store = new InMemoryAccountStore();
        await store.createAccount({ subject: 'first', email: first, passwordHash: 'h', claims: {}, emailVerified: true });
        const secondIsNew = await store.createAccount({ subject: 'second', email: second, passwordHash: 'h', claims: {}, emailVerified: true });
        const oneBudget = keys.account(a) === keys.account(b);
        expect(oneBudget, `${JSON.stringify(a)} and ${JSON.stringify(b)}: one budget ${oneBudget}, two accounts ${secondIsNew}`).toBe(!secondIsNew);
      }),
      { numRuns: 500 },
    );
  });

  it('a sign-in identifier finds an account exactly when it counts on that account’s budget', async () => {
    await fc.assert(
      fc.asyncProperty(spellingArb, fc.oneof(spellingArb, fc.string({ unit: 'grapheme', maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 30 })), async (address, typed) => {
        const stored = normalizeEmail(address);
        fc.pre(stored !== undefined);
        const accounts = new InMemoryAccountStore();
        await accounts.createAccount({ subject: 'owner', email: stored, passwordHash: 'h', claims: {}, emailVerified: true });
        const credentials = new InMemoryCredentialStore<object>();
        credentials.addAccount({ identifier: stored, subject: 'owner', passwordHash: 'h', claims: {} });
        const oneBudget = keys.account(typed) === keys.account(address);
        expect((await accounts.findByIdentifier(typed)) !== undefined, `account store, ${JSON.stringify(typed)} against ${JSON.stringify(address)}`).toBe(oneBudget);
        expect((await credentials.findByIdentifier(typed)) != null, `credential store, ${JSON.stringify(typed)} against ${JSON.stringify(address)}`).toBe(oneBudget);
      }),
      { numRuns: 500 },
    );
  });

  it('never stores an address holding an invisible, direction-changing or unpaired-surrogate character', () => {
    fc.assert(
      fc.property(spellingArb, (address) => {
        const stored = normalizeEmail(address);
        if (stored !== undefined) expect(/[\u200B\u202E\u2066\u00AD\uFFFD]|\p{Cs}/u.test(stored), `${JSON.stringify(address)} stored as ${JSON.stringify(stored)}`).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});
