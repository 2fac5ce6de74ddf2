import { describe, expect, it } from 'vitest';
import { resolveTokenIssuingSettings } from './token-issuing-options.js';

describe('resolveTokenIssuingSettings', () => {
  it('applies the SPEC defaults, also for explicit undefined', () => {
    const expected = { accessTokenTtl: 900, refreshTokenTtl: 2_592_000, sessionMaxAge: 2_592_000, refreshReuseGraceSeconds: 0 };
    expect(resolveTokenIssuingSettings({})).toEqual(expected);
    expect(resolveTokenIssuingSettings({ accessTokenTtl: undefined, refreshTokenTtl: undefined, refreshReuseGraceSeconds: undefined })).toEqual(expected);
  });

  it('keeps given values', () => {
    expect(resolveTokenIssuingSettings({ accessTokenTtl: 60, refreshTokenTtl: 3600, sessionMaxAge: 86_400, refreshReuseGraceSeconds: 30 })).toEqual({
      accessTokenTtl: 60,
      refreshTokenTtl: 3600,
      sessionMaxAge: 86_400,
      refreshReuseGraceSeconds: 30,
    });
  });

  it('rejects non-positive or non-finite TTLs and a negative grace', () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => resolveTokenIssuingSettings({ accessTokenTtl: bad })).toThrow(RangeError);
      expect(() => resolveTokenIssuingSettings({ refreshTokenTtl: bad })).toThrow(RangeError);
    }
    expect(() => resolveTokenIssuingSettings({ refreshReuseGraceSeconds: -1 })).toThrow(RangeError);
    expect(() => resolveTokenIssuingSettings({ refreshReuseGraceSeconds: Number.NaN })).toThrow(RangeError);
  });
});
