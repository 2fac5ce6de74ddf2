import { describe, expect, it } from 'vitest';
import { resolveTokenLifetimes } from './token-issuing-options.js';

describe('resolveTokenLifetimes', () => {
  it('applies the SPEC defaults, also for explicit undefined', () => {
    const expected = { accessTokenTtl: 900, refreshTokenTtl: 2_592_000, sessionMaxAge: 2_592_000, refreshReuseGraceSeconds: 0 };
    expect(resolveTokenLifetimes({})).toEqual(expected);
    expect(resolveTokenLifetimes({ accessTokenTtl: undefined, refreshTokenTtl: undefined, refreshReuseGraceSeconds: undefined })).toEqual(expected);
  });

  it('keeps given values', () => {
    expect(resolveTokenLifetimes({ accessTokenTtl: 60, refreshTokenTtl: 3600, sessionMaxAge: 86_400, refreshReuseGraceSeconds: 30 })).toEqual({
      accessTokenTtl: 60,
      refreshTokenTtl: 3600,
      sessionMaxAge: 86_400,
      refreshReuseGraceSeconds: 30,
    });
  });

  it('rejects non-positive or non-finite TTLs and a negative grace', () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => resolveTokenLifetimes({ accessTokenTtl: bad })).toThrow(RangeError);
      expect(() => resolveTokenLifetimes({ refreshTokenTtl: bad })).toThrow(RangeError);
    }
    expect(() => resolveTokenLifetimes({ refreshReuseGraceSeconds: -1 })).toThrow(RangeError);
    expect(() => resolveTokenLifetimes({ refreshReuseGraceSeconds: Number.NaN })).toThrow(RangeError);
  });
});
