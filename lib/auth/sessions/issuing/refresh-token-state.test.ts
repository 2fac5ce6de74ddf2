import { describe, expect, it } from 'vitest';
import { isWithinReuseGrace, refreshTokenState } from './refresh-token-state.js';

describe('refreshTokenState', () => {
  const expiresAt = new Date(2_000);
  it('reads each state, with precedence revoked > expired > rotated > active', () => {
    expect(refreshTokenState({ subject: 's', expiresAt }, 1_000)).toBe('active');
    expect(refreshTokenState({ subject: 's', expiresAt, rotatedAt: null, revokedAt: null }, 1_999)).toBe('active');
    expect(refreshTokenState({ subject: 's', expiresAt, rotatedAt: new Date(500) }, 1_000)).toBe('rotated');
    expect(refreshTokenState({ subject: 's', expiresAt, rotatedAt: new Date(500) }, 2_000)).toBe('expired');
    expect(refreshTokenState({ subject: 's', expiresAt }, 2_000)).toBe('expired');
    expect(refreshTokenState({ subject: 's', expiresAt, rotatedAt: new Date(500), revokedAt: new Date(600) }, 3_000)).toBe('revoked');
  });

  it('fails closed on an invalid expiresAt', () => {
    expect(refreshTokenState({ subject: 's', expiresAt: new Date(Number.NaN) }, 0)).toBe('expired');
    expect(refreshTokenState({ subject: 's', expiresAt: '2999-01-01' as unknown as Date }, 0)).toBe('expired');
  });
});

describe('isWithinReuseGrace', () => {
  it('is strictly less than grace seconds after rotation', () => {
    expect(isWithinReuseGrace(new Date(0), 0, 30)).toBe(true);
    expect(isWithinReuseGrace(new Date(0), 29_999, 30)).toBe(true);
    expect(isWithinReuseGrace(new Date(0), 30_000, 30)).toBe(false);
  });

  it('is off with a grace of 0 and fails closed without a rotatedAt', () => {
    expect(isWithinReuseGrace(new Date(0), 0, 0)).toBe(false);
    expect(isWithinReuseGrace(null, 0, 30)).toBe(false);
    expect(isWithinReuseGrace(undefined, 0, 30)).toBe(false);
  });
});
