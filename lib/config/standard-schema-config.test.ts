import { describe, expect, expectTypeOf, it } from 'vitest';
import * as v from 'valibot';
import { type } from 'arktype';
import { ConfigError } from './config-error.js';
import { defineConfig } from './define-config.js';

const SECRET = 'a-secret-value-that-must-never-be-shown';

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError, nothing was thrown');
}

describe('defineConfig with a valibot schema', () => {
  const AppConfig = defineConfig(
    v.object({
      PORT: v.optional(v.pipe(v.string(), v.transform(Number), v.integer()), '3000'),
      AUTH_SECRET: v.pipe(v.string(), v.minLength(64)),
      DATABASE_URL: v.pipe(v.string(), v.url()),
    }),
    { name: 'AppConfig', secrets: ['AUTH_SECRET'] },
  );

  it('loads the schema output, typed and frozen', () => {
    const config = AppConfig.load({ AUTH_SECRET: 'x'.repeat(64), DATABASE_URL: 'postgres://db/app', UNRELATED: 'y' });
    expectTypeOf(config.PORT).toEqualTypeOf<number>();
    expect(config).toEqual({ PORT: 3000, AUTH_SECRET: 'x'.repeat(64), DATABASE_URL: 'postgres://db/app' });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('lists every problem by variable, says which are not set, and never shows a secret', () => {
    const error = configError(() => AppConfig.load({ AUTH_SECRET: SECRET, PORT: 'x' }));
    expect(error.problems.map((problem) => problem.variable).sort()).toEqual(['AUTH_SECRET', 'DATABASE_URL', 'PORT']);
    expect(error.problems.find((problem) => problem.variable === 'DATABASE_URL')?.message).toMatch(/^is not set/);
    expect(error.message, 'the secret reached the message').not.toContain(SECRET);
  });
});

describe('defineConfig with an ArkType schema', () => {
  const AppConfig = defineConfig(type({ PORT: 'string.integer.parse', NAME: 'string' }), { name: 'ArkConfig' });

  it('loads the schema output', () => {
    expect(AppConfig.load({ PORT: '8080', NAME: 'api', OTHER_SECRET: 'not-declared' }), 'an undeclared variable was kept').toEqual({ PORT: 8080, NAME: 'api' });
  });

  it('refuses a bad environment by variable', () => {
    const error = configError(() => AppConfig.load({ PORT: 'eighty' }));
    expect(error.problems.map((problem) => problem.variable).sort()).toEqual(['NAME', 'PORT']);
    expect(error.problems.find((problem) => problem.variable === 'NAME')?.message).toMatch(/^is not set/);
  });
});
