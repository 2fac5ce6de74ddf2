import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createManualClock, isHttpException } from '../../index.js';
import { InMemoryCredentialStore, InMemoryRefreshTokenStore, SECOND_FACTOR_REQUIRED_CODE, TokenIssuingService } from '../sessions/issuing/index.js';
import { newSessionId } from '../sessions/state/session-id.js';
import { InMemorySecondFactorStore } from './in-memory-second-factor-store.js';
import { SecretBox } from './secret-box.js';
import { SecondFactorService } from './second-factor-service.js';

// The one gate every sign-in path passes, on TokenIssuingService itself (no HTTP): once a person
// has a factor, no method starts a session without it; the outside-provider path (beginSession)
// answers the same second step as the password path.

const Claims = z.object({ sub: z.string() });
const T0 = Date.parse('2026-11-28T12:00:00Z');
const KEY = 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8';

async function setUp() {
  const clock = createManualClock(T0);
  const store = new InMemorySecondFactorStore();
  const factors = new SecondFactorService({ store, box: await SecretBox.fromKeys([KEY]), clock, totpIssuer: 'Test', throttle: null });
  const credentials = new InMemoryCredentialStore<{ sub: string }>([{ identifier: 'ann@example.test', subject: 'ann', passwordHash: 'unused', claims: { sub: 'ann' } }]);
  let signed = 0;
  const service = new TokenIssuingService<{ sub: string }>({
    claimsSchema: Claims,
    credentialStore: credentials,
    refreshTokenStore: new InMemoryRefreshTokenStore(),
    accessTokens: {
      // A token with a real sid, so the factor service can mark the session.
      sign: async (_claims, _subject, sid) => ({ token: `h.${btoa(JSON.stringify({ sid, n: ++signed })).replace(/=+$/, '')}.s`, expiresAt: new Date(clock.now() + 900_000) }),
    },
    clock,
    passwordVerifier: { verify: async (password) => password === 'right', dummyHash: async () => 'unused' },
    secondFactorGate: factors,
  });
  return { clock, store, factors, service };
}

async function enableTotp(factors: SecondFactorService, clock: { now(): number }): Promise<string> {
  const { secret } = await factors.enrolTotp('ann', 'ann@example.test');
  await factors.confirmTotp('ann', TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: clock.now() }), newSessionId(clock.now()));
  return secret;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('the second-factor gate on TokenIssuingService', () => {
  it('without a factor, beginSignIn and beginSession answer a session', async () => {
    const { service } = await setUp();
    expect((await service.beginSignIn('ann@example.test', 'right')).kind).toBe('session');
    expect((await service.beginSession('ann')).kind).toBe('session');
  });

  it('with a TOTP, beginSignIn answers the second step, not a session', async () => {
    const { service, factors, clock } = await setUp();
    await enableTotp(factors, clock);
    const step = await service.beginSignIn('ann@example.test', 'right');
    expect(step.kind).toBe('second-factor');
    if (step.kind === 'second-factor') expect(step.step.factors).toEqual(['totp', 'recovery-code']);
  });

  it('the outside-provider path (beginSession) answers the same second step', async () => {
    const { service, factors, clock } = await setUp();
    const secret = await enableTotp(factors, clock);
    const step = await service.beginSession('ann');
    expect(step.kind).toBe('second-factor');
    if (step.kind !== 'second-factor') return;
    clock.advance(30_000);
    const pair = await factors.completeSignIn(step.step.pendingToken, { totp: TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: clock.now() }) });
    expect(pair.accessToken).toMatch(/^h\./);
  });

  it('the one-step signIn refuses (401 SECOND_FACTOR_REQUIRED) rather than start a session without the factor', async () => {
    const { service, factors, clock } = await setUp();
    await enableTotp(factors, clock);
    const error = await rejection(service.signIn('ann@example.test', 'right'));
    expect(isHttpException(error) && error.status).toBe(401);
    expect(isHttpException(error) && error.details?.code).toBe(SECOND_FACTOR_REQUIRED_CODE);
  });

  it('issueTokens refuses too: no path around the gate', async () => {
    const { service, factors, clock } = await setUp();
    await enableTotp(factors, clock);
    const error = await rejection(service.issueTokens('ann'));
    expect(isHttpException(error) && error.details?.code).toBe(SECOND_FACTOR_REQUIRED_CODE);
  });

  it('a wrong password never reaches the gate: the same 401 Invalid credentials', async () => {
    const { service, factors, clock } = await setUp();
    await enableTotp(factors, clock);
    const error = await rejection(service.beginSignIn('ann@example.test', 'wrong'));
    expect(isHttpException(error) && error.message).toBe('Invalid credentials');
  });

  it('an unconfirmed enrolment does not turn the gate on', async () => {
    const { service, factors } = await setUp();
    await factors.enrolTotp('ann', 'ann@example.test');
    expect((await service.beginSignIn('ann@example.test', 'right')).kind).toBe('session');
  });

  it('a second enrolment while one is confirmed is refused with 409', async () => {
    const { factors, clock } = await setUp();
    await enableTotp(factors, clock);
    const error = await rejection(factors.enrolTotp('ann', 'ann@example.test'));
    expect(isHttpException(error) && error.status).toBe(409);
  });

  it('a gate attaches to one issuing service only', async () => {
    const { factors } = await setUp();
    expect(() => factors.attach({ startSession: async () => Promise.reject(new Error('unused')), revokeOtherSessions: async () => undefined })).toThrow(/already attached/);
  });
});

describe('SecretBox (AES-256-GCM through Web Crypto)', () => {
  it('opens what it sealed for the same purpose and subject', async () => {
    const box = await SecretBox.fromKeys([KEY]);
    const secret = crypto.getRandomValues(new Uint8Array(20));
    expect(await box.open(await box.seal(secret, 'totp', 'ann'), 'totp', 'ann')).toEqual(secret);
  });

  it('a fresh IV each time: sealing twice gives two texts', async () => {
    const box = await SecretBox.fromKeys([KEY]);
    const secret = new Uint8Array(20);
    expect(await box.seal(secret, 'totp', 'ann')).not.toBe(await box.seal(secret, 'totp', 'ann'));
  });

  it("does not open a value sealed for another subject (a row copied onto another account)", async () => {
    const box = await SecretBox.fromKeys([KEY]);
    const sealed = await box.seal(new Uint8Array(20), 'totp', 'ann');
    await expect(box.open(sealed, 'totp', 'bob')).rejects.toThrow(/did not open/);
  });

  it('does not open a tampered value', async () => {
    const box = await SecretBox.fromKeys([KEY]);
    const sealed = await box.seal(new Uint8Array(20), 'totp', 'ann');
    const last = sealed.at(-1) === 'A' ? 'B' : 'A';
    await expect(box.open(sealed.slice(0, -1) + last, 'totp', 'ann')).rejects.toThrow();
  });

  it('after a rotation (new key first) still opens values sealed under the old key', async () => {
    const old = await SecretBox.fromKeys([KEY]);
    const sealed = await old.seal(new Uint8Array([1, 2, 3]), 'totp', 'ann');
    const rotated = await SecretBox.fromKeys(['HyAhIiMkJSYnKCkqKywtLi8wMTIzNDU2Nzg5Ojs8PT4', KEY]);
    expect(await rotated.open(sealed, 'totp', 'ann')).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('refuses keys that are not 32 bytes', async () => {
    await expect(SecretBox.fromKeys(['c2hvcnQ'])).rejects.toThrow(/32 random bytes/);
    await expect(SecretBox.fromKeys([])).rejects.toThrow(/at least one key/);
  });
});
