import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCsrfToken, deriveCsrfKey, isCsrfTokenOf } from './csrf-token.js';

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256!';
const SID = '019ab3c4-5d6e-7f01-8a2b-3c4d5e6f7a8b';

describe('CSRF tokens', () => {
  it('are sid.base64url(HMAC-SHA256(HMAC-SHA256(secret, label), sid)), as node:crypto computes them', () => {
    const derived = createHmac('sha256', SECRET).update('tessera browser-session csrf v1').digest();
    const expected = `${SID}.${createHmac('sha256', derived).update(SID).digest('base64url')}`;
    const key = deriveCsrfKey(SECRET);
    expect(createCsrfToken(key, SID)).toBe(expected);
    expect(createCsrfToken(key, SID), 'the keyed HMAC is cloned, never consumed: the same token again').toBe(expected);
  });

  it('accept only the token of that session made with that key', () => {
    const key = deriveCsrfKey(SECRET);
    const token = createCsrfToken(key, SID);
    expect(isCsrfTokenOf(key, token, SID)).toBe(true);
    expect(isCsrfTokenOf(key, token, '019ab3c4-5d6e-7f01-8a2b-3c4d5e6f7a8c'), 'another session').toBe(false);
    expect(isCsrfTokenOf(deriveCsrfKey(`${SECRET}x`), token, SID), 'another secret').toBe(false);
    for (const given of [null, undefined, '', SID, `${SID}.`, token.slice(0, -1)]) expect(isCsrfTokenOf(key, given, SID), String(given)).toBe(false);
    expect(isCsrfTokenOf(key, token, ''), 'no session').toBe(false);
  });
});
