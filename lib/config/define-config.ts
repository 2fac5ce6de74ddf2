import type { z } from 'zod';
import type { Token } from '../common/token.js';
import { DEFAULT_PROVIDER } from '../di/default-provider.js';
import type { ProviderInput } from '../di/provider.js';
import type { ZodNode } from '../schema/zod-internals.js';
import { ConfigError, configProblems, type ConfigIssue } from './config-error.js';
import { ENV, processEnv, type ConfigSource } from './env.js';

/**
 * A value, read-only all the way down (what a configuration hands out: frozen objects and arrays).
 *
 * @example
 * const limits: Frozen<{ hosts: string[] }> = { hosts: ['a'] }; // limits.hosts.push(...) does not compile
 */
export type Frozen<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer E)[]
    ? readonly Frozen<E>[]
    : T extends object
      ? { readonly [K in keyof T]: Frozen<T[K]> }
      : T;

/**
 * Options of {@link defineConfig}.
 *
 * @example
 * const options: ConfigOptions<{ AUTH_SECRET: string }> = { name: 'AppConfig', secrets: ['AUTH_SECRET'] };
 */
export interface ConfigOptions<Input> {
  /** Its name in errors and DI messages; default `Config`. */
  readonly name?: string;
  /** Variables whose values never appear in an error, not even where a check's own message would quote them. */
  readonly secrets?: readonly (keyof Input & string)[];
  /**
   * Whether a variable set to the empty string counts as not set (so its default applies, or it
   * is reported as not set), as `VAR=` in a `.env` file or a compose file usually means. Default true.
   */
  readonly emptyIsUnset?: boolean;
}

/**
 * A typed configuration: the token to inject (`inject: [AppConfig]`, `@Inject(AppConfig)`), which
 * no module needs to provide, and `load` to read it outside DI (a `main.ts`). What both hand out is
 * the schema's output, frozen.
 *
 * @example
 * const config = AppConfig.load(); // process.env
 * type AppConfigValues = TokenValue<typeof AppConfig>;
 */
export interface Config<Output> extends Token<Frozen<Output>> {
  readonly schema: z.ZodType<Output>;
  readonly secrets: readonly string[];
  /**
   * Parses `source`, any object of variables (default: `process.env` where the runtime has it,
   * else nothing; a Worker's `Env` interface fits as it is), and returns
   * the frozen output; throws a {@link ConfigError} listing every problem by variable name.
   */
  load(source?: object): Frozen<Output>;
}

/**
 * Declares the app's configuration with one zod schema over its environment. Injected, it is
 * parsed once per app from the app's `env` (`createApp(AppModule, { env })`, else
 * `process.env`) while the app boots, so a bad environment fails `createApp`, never a request.
 * Checks must be synchronous.
 *
 * @example
 * export const AppConfig = defineConfig(
 *   z.object({
 *     PORT: z.coerce.number().int().default(3000),
 *     DATABASE_URL: z.url(),
 *     AUTH_SECRET: z.string().min(32),
 *   }),
 *   { name: 'AppConfig', secrets: ['AUTH_SECRET', 'DATABASE_URL'] },
 * );
 * const postsController = defineController({ name: 'Posts', inject: [AppConfig], routes: (config) => ({ port: get('/port', () => config.PORT) }) });
 */
export function defineConfig<S extends z.ZodType<unknown, Record<string, unknown>>>(schema: S, options: ConfigOptions<z.input<S>> = {}): Config<z.output<S>> {
  type Output = z.output<S>;
  const name = options.name ?? 'Config';
  const secrets: readonly string[] = Object.freeze([...(options.secrets ?? [])]);
  const secretSet: ReadonlySet<string> = new Set(secrets);
  const emptyIsUnset = options.emptyIsUnset ?? true;

  const variables = variablesOf(schema);
  const load = (source: object = processEnv()): Frozen<Output> => {
    const input = read(source as ConfigSource, variables, emptyIsUnset);
    const result = schema.safeParse(input);
    if (!result.success) throw new ConfigError(name, configProblems(result.error.issues as readonly ConfigIssue[], input, secretSet));
    return deepFreeze(result.data as Output);
  };

  const config: Config<Output> = Object.freeze({
    kind: 'token' as const,
    name,
    schema: schema as unknown as z.ZodType<Output>,
    secrets,
    load,
    [DEFAULT_PROVIDER]: (): ProviderInput => ({ provide: config, useFactory: (env: ConfigSource) => load(env), inject: [ENV] }),
  });
  return config;
}

/**
 * The variables an object schema (or a pipe from one) names, when it takes no others: only those
 * are read, so Deno's `--allow-env=PORT,DATABASE_URL` is enough and nothing else is copied.
 */
function variablesOf(schema: unknown): readonly string[] | undefined {
  let def = (schema as ZodNode)._zod.def;
  while (def.type === 'pipe' && def.in !== undefined) def = def.in._zod.def;
  if (def.type !== 'object' || def.shape === undefined) return undefined;
  if (def.catchall !== undefined && def.catchall._zod.def.type !== 'never') return undefined;
  return Object.keys(def.shape);
}

function read(source: ConfigSource, variables: readonly string[] | undefined, emptyIsUnset: boolean): ConfigSource {
  const input: Record<string, unknown> = {};
  for (const key of variables ?? Object.keys(source)) {
    const value = source[key];
    if (value !== undefined && !(emptyIsUnset && value === '')) input[key] = value;
  }
  return input;
}

function deepFreeze<T>(value: T): Frozen<T> {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value as Frozen<T>;
}
