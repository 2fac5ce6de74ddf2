import { describe, it, expect } from 'vitest';
import { areArgon2ParametersValid, checkArgon2Parameters, DEFAULT_ARGON2_PARAMETERS } from './argon2-parameters.js';

describe('Argon2 parameters', () => {
  it('defaults to the SPEC cost m=19456, t=2, p=1 and cannot be mutated', () => {
    expect(DEFAULT_ARGON2_PARAMETERS).toEqual({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    expect(Object.isFrozen(DEFAULT_ARGON2_PARAMETERS)).toBe(true);
  });

  it.each([
    [{ memoryCost: 19_456, timeCost: 0, parallelism: 1 }],
    [{ memoryCost: 19_456, timeCost: 65, parallelism: 1 }],
    [{ memoryCost: 1_048_577, timeCost: 2, parallelism: 1 }],
    [{ memoryCost: 15, timeCost: 2, parallelism: 2 }],
    [{ memoryCost: 19_456, timeCost: 2, parallelism: 0 }],
    [{ memoryCost: 19_456, timeCost: 2, parallelism: 256 }],
    [{ memoryCost: 19_456.5, timeCost: 2, parallelism: 1 }],
    [{ memoryCost: Number.NaN, timeCost: 2, parallelism: 1 }],
  ])('refuses %j', (parameters) => {
    expect(areArgon2ParametersValid(parameters)).toBe(false);
    expect(() => checkArgon2Parameters(parameters)).toThrow(RangeError);
  });

  it('accepts the boundaries and returns a frozen copy', () => {
    const checked = checkArgon2Parameters({ memoryCost: 1_048_576, timeCost: 64, parallelism: 255 });
    expect(checked).toEqual({ memoryCost: 1_048_576, timeCost: 64, parallelism: 255 });
    expect(Object.isFrozen(checked)).toBe(true);
    expect(areArgon2ParametersValid({ memoryCost: 8, timeCost: 1, parallelism: 1 })).toBe(true);
  });
});
