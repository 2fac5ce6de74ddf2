import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Controller, Get, Inject, Injectable, Module } from '../../facade/index.js';
import { createTestingApp } from '../testing/index.js';
import { ConfigError, createApp, createToken, defineConfig, defineController, defineFactory, defineModule, ENV, get, isTesseraError, type TokenValue } from '../index.js';

const SECRET = 'a-secret-that-is-at-least-32-characters-long';
const AppConfig = defineConfig(
  z.object({
    PORT: z.coerce.number().int().default(3000),
    DATABASE_URL: z.url(),
    AUTH_SECRET: z.string().min(32),
  }),
  { name: 'AppConfig', secrets: ['AUTH_SECRET', 'DATABASE_URL'] },
);
const good = { DATABASE_URL: 'postgres://db.internal/app', AUTH_SECRET: SECRET };

const configController = defineController({ name: 'ConfigController', inject: [AppConfig], routes: (config) => ({ port: get('/port', () => ({ port: config.PORT })) }) });
const AppModule = defineModule({ name: 'AppModule', controllers: [configController] });

/** The ConfigError a load throws. */
function failure(source: Record<string, string | undefined>, config: { load(source: Record<string, string | undefined>): unknown } = AppConfig): ConfigError {
  try {
    config.load(source);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('the load did not fail');
}

describe('defineConfig: load', () => {
  it('returns the schema\u2019s output, with defaults and coercion', () => {
    const config = AppConfig.load({ ...good, PORT: '8080' });
    expect(config).toEqual({ PORT: 8080, DATABASE_URL: 'postgres://db.internal/app', AUTH_SECRET: SECRET });
    expect(AppConfig.load(good).PORT, 'the default').toBe(3000);
  });

  it('hands out a frozen value, nested objects and arrays included', () => {
    const Nested = defineConfig(z.object({ HOSTS: z.string().transform((v) => ({ list: v.split(',') })) }));
    const config = Nested.load({ HOSTS: 'a,b' });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.HOSTS) && Object.isFrozen(config.HOSTS.list), 'frozen all the way down').toBe(true);
    expect(() => (config.HOSTS.list as string[]).push('c')).toThrow(TypeError);
  });

  it('lists every problem by variable name in one error, not the first only', () => {
    const error = failure({ PORT: '3.5', AUTH_SECRET: 'too-short' });
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.problems.map((p) => p.variable)).toEqual(['PORT', 'DATABASE_URL', 'AUTH_SECRET']);
    expect(error.message).toMatch(/^AppConfig: 3 problems in the environment:\n {2}PORT: .*expected int.*\n {2}DATABASE_URL: is not set \(expected string\)\n {2}AUTH_SECRET: too short or small: at least 32 characters/);
  });

  it('never echoes a secret\u2019s value, even where the check\u2019s own message quotes it', () => {
    const Quoting = defineConfig(
      z.object({ API_TOKEN: z.string().refine((v) => v.startsWith('tok_'), { error: (issue) => `expected tok_..., got ${String(issue.input)}` }), MODE: z.string() }).refine((c) => c.MODE !== c.API_TOKEN, { error: (issue) => `MODE equals ${JSON.stringify(issue.input)}` }),
      { secrets: ['API_TOKEN'] },
    );
    const value = 'sk_live_DO_NOT_PRINT_ME';
    const error = failure({ API_TOKEN: value, MODE: 'x' }, Quoting);
    expect(error.message, 'the secret\u2019s own problem').toMatch(/API_TOKEN: invalid \(custom; a secret/);
    expect(JSON.stringify({ message: error.message, problems: error.problems, stack: error.stack, cause: String(error.cause) }), 'the value appears nowhere on the error').not.toContain(value);
  });

  it('never echoes a secret that zod\u2019s built-in message would describe (a bad URL)', () => {
    const value = 'postgres//user:hunter2-password@db';
    const error = failure({ ...good, DATABASE_URL: value });
    expect(error.problems).toEqual([{ variable: 'DATABASE_URL', message: 'not a valid url (a secret: its value is not shown)' }]);
    expect(error.message).not.toContain('hunter2');
  });

  it('treats an empty variable as not set (its default applies), unless told otherwise', () => {
    expect(AppConfig.load({ ...good, PORT: '' }).PORT).toBe(3000);
    const Strict = defineConfig(z.object({ NAME: z.string().min(1) }), { emptyIsUnset: false });
    expect(failure({ NAME: '' }, Strict).problems[0]?.message).toMatch(/Too small/);
  });

  it('reads only the variables the schema names (a scoped Deno --allow-env is enough), all of them for a loose object', () => {
    const read: string[] = [];
    const source = new Proxy({ DATABASE_URL: good.DATABASE_URL, AUTH_SECRET: SECRET, OTHER: 'x' } as Record<string, string>, {
      get: (target, key) => {
        read.push(String(key));
        return target[String(key)];
      },
    });
    AppConfig.load(source);
    expect(read.sort()).toEqual(['AUTH_SECRET', 'DATABASE_URL', 'PORT']);
    const Loose = defineConfig(z.looseObject({ A: z.string().optional() }));
    expect(Loose.load({ B: 'kept' })).toEqual({ B: 'kept' });
  });

  it('reads process.env when no source is given', () => {
    const Home = defineConfig(z.object({ TESSERA_CONFIG_TEST_VAR: z.string() }));
    process.env.TESSERA_CONFIG_TEST_VAR = 'from-process-env';
    try {
      expect(Home.load().TESSERA_CONFIG_TEST_VAR).toBe('from-process-env');
    } finally {
      delete process.env.TESSERA_CONFIG_TEST_VAR;
    }
  });
});

describe('defineConfig: injected', () => {
  it('is injected with no module providing it, read from the app\u2019s env', async () => {
    const app = await createApp(AppModule, { env: { ...good, PORT: '4000' } });
    expect(await (await app.request('/port')).json()).toEqual({ port: 4000 });
    expect(app.get(AppConfig).PORT, 'one value per app, the one the controller got').toBe(4000);
  });

  it('app.get of a configuration nothing injects says so, and how to read it', async () => {
    const app = await createApp(defineModule({ name: 'Bare' }), { env: good });
    expect(() => app.get(AppConfig)).toThrow(/AppConfig is not built: nothing in the app injects it.*load\(\)/);
  });

  it('fails createApp, before serving, listing every problem', async () => {
    const error = await createApp(AppModule, { env: { PORT: 'x' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.map((p) => p.variable)).toEqual(['PORT', 'DATABASE_URL', 'AUTH_SECRET']);
  });

  it('is parsed when a provider depends on it, in any module, at boot', async () => {
    const PORT_TEXT = createToken<string>('PORT_TEXT');
    const Inner = defineModule({ name: 'Inner', providers: [defineFactory(PORT_TEXT, [AppConfig], (config) => String(config.PORT))] });
    await expect(createApp(defineModule({ name: 'Root', imports: [Inner] }), { env: {} }), 'an inner module\u2019s dependency is found at boot').rejects.toBeInstanceOf(ConfigError);
  });

  it('tells every configuration\u2019s problems in one error, wherever each is injected', async () => {
    const MailConfig = defineConfig(z.object({ SMTP_URL: z.url() }), { name: 'MailConfig', secrets: ['SMTP_URL'] });
    const MAILER = createToken<string>('MAILER');
    const Mail = defineModule({ name: 'Mail', providers: [defineFactory(MAILER, [MailConfig], (config) => config.SMTP_URL)] });
    const error = await createApp(defineModule({ name: 'Root', imports: [Mail], controllers: [configController] }), { env: { PORT: 'x' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(/^MailConfig, AppConfig: 4 problems in the environment:/);
    expect((error as ConfigError).problems.map((p) => p.variable)).toEqual(['SMTP_URL', 'PORT', 'DATABASE_URL', 'AUTH_SECRET']);
  });

  it('is injected into a facade class with @Inject', async () => {
    @Injectable()
    class PortService {
      constructor(@Inject(AppConfig) readonly config: TokenValue<typeof AppConfig>) {}
    }
    @Controller('facade')
    class FacadeController {
      constructor(readonly ports: PortService) {}
      @Get()
      port() {
        return { port: this.ports.config.PORT };
      }
    }
    @Module({ providers: [PortService], controllers: [FacadeController] })
    class FacadeModule {}
    const app = await createApp(FacadeModule, { env: { ...good, PORT: '5000' } });
    expect(await (await app.request('/facade')).json()).toEqual({ port: 5000 });
  });

  it('ENV is injectable: the app\u2019s env', async () => {
    const READ = createToken<unknown>('READ');
    const app = await createApp(defineModule({ name: 'Env', providers: [defineFactory(READ, [ENV], (env) => env.REGION)] }), { env: { REGION: 'eu-west' } });
    expect(app.get(READ)).toBe('eu-west');
  });

  it('a module may still provide it itself; a test may override it or the env', async () => {
    const fixed = defineModule({ name: 'Fixed', providers: [{ provide: AppConfig, useValue: AppConfig.load({ ...good, PORT: '7000' }) }], controllers: [configController] });
    expect(await (await (await createApp(fixed, { env: {} })).request('/port')).json()).toEqual({ port: 7000 });
    const overridden = await createTestingApp(AppModule).overrideProvider(AppConfig).useValue(AppConfig.load({ ...good, PORT: '7001' })).compile();
    expect(await (await overridden.request('/port')).json()).toEqual({ port: 7001 });
    const viaEnv = await createTestingApp(AppModule, { env: { ...good, PORT: '7002' } }).compile();
    expect(await (await viaEnv.request('/port')).json()).toEqual({ port: 7002 });
  });

  it('an override of a configuration nothing injects fails the test\u2019s boot (it would change nothing)', async () => {
    const error = await createTestingApp(defineModule({ name: 'Empty' })).overrideProvider(AppConfig).useValue(AppConfig.load(good)).compile().catch((e: unknown) => e);
    expect(isTesseraError(error) && error.code).toBe('OVERRIDE_UNUSED');
  });
});
