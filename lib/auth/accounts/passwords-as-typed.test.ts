// Passwords people may choose are taken as typed (ASVS 5.0 6.2.5, 6.2.8, 6.2.9, 6.2.10): no rule
// about character classes, no change to what was typed (no trimming, case folding, normalisation
// or truncation), long passwords welcome, and no expiry. Through the module, as an app has it.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createManualClock, silentLogger } from '../../index.js';
import { InMemoryRefreshTokenStore } from '../sessions/issuing/index.js';
import { defineAuthModule } from '../index.js';
import { capturingMailer, countingHasher } from './account-service.test-helper.js';
import { InMemoryAccountStore } from './in-memory-account-store.js';
import { authTestApp } from '../core/auth-test-app.test-helper.js';

const Claims = z.object({ sub: z.string(), sid: z.string().optional() });

async function setup() {
  const auth = defineAuthModule(Claims);
  const clock = createManualClock(Date.parse('2026-11-28T00:00:00Z'));
  const passwordHasher = await countingHasher();
  const app = await authTestApp({
    auth,
    forRoot: () => ({
      clock,
      issuing: { refreshTokenStore: InMemoryRefreshTokenStore, passwordHasher },
      // Signing in before verification keeps these tests about the password alone.
      accounts: { store: InMemoryAccountStore, links: 'https://app.example.test', mailer: capturingMailer(), newAccountClaims: ({ subject }) => ({ sub: subject }), requireVerifiedEmail: false },
    }),
    app: { logger: silentLogger },
  });
  const accounts = app.get(auth.ACCOUNT_SERVICE);
  const service = app.get(auth.AUTH_SERVICE);
  let n = 0;
  /** Signs a new account up with `password`; answers its address. */
  const signUp = async (password: string) => {
    const email = `person-${++n}@example.test`;
    await accounts.signUp(email, password);
    return email;
  };
  /** Whether `password` signs `email` in. */
  const signsIn = async (email: string, password: string) =>
    service.signIn(email, password).then(
      () => true,
      (error: unknown) => {
        if ((error as { status?: number }).status === 401) return false;
        throw error;
      },
    );
  return { accounts, clock, signUp, signsIn };
}

describe('passwords people may choose (ASVS 6.2.5, 6.2.8, 6.2.9, 6.2.10)', () => {
  it('accepts any composition: lower case only, digits only, spaces, another script, emoji', async () => {
    const { signUp, signsIn } = await setup();
    for (const password of ['quietly walking home', '730194826315', 'пароль без цифр', '🦊🌲🦉 night forest', '          x ']) {
      const email = await signUp(password);
      expect(await signsIn(email, password), `${JSON.stringify(password)} was refused for its composition`).toBe(true);
    }
  });

  it('verifies the password exactly as typed: another case, trimmed, or normalised is refused', async () => {
    const { signUp, signsIn } = await setup();
    const typed = ' Crème Brûlée Recipe ';
    const email = await signUp(typed);
    expect(await signsIn(email, typed), 'the password as typed').toBe(true);
    expect(await signsIn(email, typed.toLowerCase()), 'case was folded').toBe(false);
    expect(await signsIn(email, typed.trim()), 'spaces were trimmed').toBe(false);
    expect(await signsIn(email, typed.normalize('NFD')), 'the decomposed form (another byte sequence) was taken as the same').toBe(false);
  });

  it('never truncates: a long password differing only in its last character is refused', async () => {
    const { signUp, signsIn } = await setup();
    const long = `${'a long passphrase '.repeat(20)}end1`; // 364 bytes, far past bcrypt's 72
    const email = await signUp(long);
    expect(await signsIn(email, long)).toBe(true);
    expect(await signsIn(email, `${long.slice(0, -1)}2`), 'only a prefix of the password was checked').toBe(false);
  });

  it('accepts 64 characters of any script and 1,024 bytes; one byte more is refused (400), never cut', async () => {
    const { accounts, signUp, signsIn } = await setup();
    const sixtyFour = '密码'.repeat(32); // 64 characters, 192 bytes
    expect(await signsIn(await signUp(sixtyFour), sixtyFour), '64 characters').toBe(true);
    const maximum = 'b'.repeat(1023) + 'c';
    expect(await signsIn(await signUp(maximum), maximum), '1,024 bytes').toBe(true);
    await expect(accounts.signUp('over@example.test', `${maximum}d`), '1,025 bytes').rejects.toMatchObject({ status: 400, details: { field: 'password', maxBytes: 1024 } });
  });

  it('has no expiry: two years on, the password still signs in', async () => {
    const { clock, signUp, signsIn } = await setup();
    const email = await signUp('a password kept for years');
    clock.advance(2 * 365 * 24 * 3600 * 1000);
    expect(await signsIn(email, 'a password kept for years'), 'the password expired').toBe(true);
  });
});
