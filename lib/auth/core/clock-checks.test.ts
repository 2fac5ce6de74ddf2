import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, createManualClock, defineController, defineModule, get, systemClock, type Clock } from '../../index.js';
import { ClockError, checkedClock } from '../../internal/primitives.js';
import { createTestLogger } from '../../../test/support/test-logger.js';
import { send } from '../../../test/http-helpers.js';
import { defineAuthModule } from '../index.js';

const SECRET = 'clock-checks-secret-of-at-least-32-bytes!';
const NOW = Date.parse('2026-06-01T00:00:00Z');
const Claims = z.object({ sub: z.string(), roles: z.array(z.string()) });

function token(expSeconds: number) {
  return new SignJWT({ sub: 'u1', roles: [] })
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
    .setExpirationTime(expSeconds)
    .sign(new TextEncoder().encode(SECRET));
}

async function appWith(clock: Clock) {
  const auth = defineAuthModule(Claims);
  const controller = defineController({ name: 'Things', routes: () => ({ me: get('/me', { guards: [auth.JwtAuthGuard] }, (ctx) => auth.getCurrentUser(ctx)) }) });
  const { logger } = createTestLogger();
  return createApp(defineModule({ name: 'Root', imports: [auth.AuthModule.forRoot({ secret: SECRET, clock })], controllers: [controller] }), { logger });
}

describe('checkedClock', () => {
  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
    ['a string', '1700000000000'],
    ['undefined', undefined],
  ])('refuses a clock returning %s when it is given', (_name, value) => {
    expect(() => checkedClock({ now: () => value as number })).toThrow(ClockError);
  });

  it('refuses something that is not a clock', () => {
    expect(() => checkedClock({} as Clock)).toThrow(/now\(\) method/);
  });

  it('passes finite readings through and throws on a reading that turns non-finite later', () => {
    let value = NOW;
    const clock = checkedClock({ now: () => value });
    expect(clock.now()).toBe(NOW);
    value = Number.NaN;
    expect(() => clock.now()).toThrow(ClockError);
  });

  it('returns the system clock itself, unwrapped', () => {
    expect(checkedClock(systemClock)).toBe(systemClock);
  });
});

describe('a broken clock given to the auth module', () => {
  it('is a configuration error at boot', () => {
    const auth = defineAuthModule(Claims);
    expect(() => auth.AuthModule.forRoot({ secret: SECRET, clock: { now: () => Number.NaN } })).toThrow(ClockError);
  });

  it('refuses a token that expired 30 s ago when the clock turns NaN after boot (fail closed)', async () => {
    let broken = false;
    const manual = createManualClock(NOW);
    const app = await appWith({ now: () => (broken ? Number.NaN : manual.now()) });
    const expired = await token(NOW / 1000 - 30);
    broken = true;
    const res = await send(app, 'GET', '/me', { headers: { authorization: `Bearer ${expired}` } });
    expect(res.status, 'an expired token is never accepted, whatever the clock says').not.toBe(200);
    expect([401, 500]).toContain(res.status);
  });

  it('refuses even a valid token while the clock reads NaN', async () => {
    let broken = false;
    const app = await appWith({ now: () => (broken ? Number.NaN : NOW) });
    const valid = await token(NOW / 1000 + 600);
    expect((await send(app, 'GET', '/me', { headers: { authorization: `Bearer ${valid}` } })).status).toBe(200);
    broken = true;
    expect((await send(app, 'GET', '/me', { headers: { authorization: `Bearer ${valid}` } })).status, 'a cached token is refused too').not.toBe(200);
  });
});
