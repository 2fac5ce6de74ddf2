import type { Token } from '../di/token.js';
import { DEFAULT_PROVIDER } from '../di/default-provider.js';
import type { ProviderInput } from '../di/provider.js';
import type { ZodNode } from '../schema/zod-internals.js';
import type { StandardSchemaV1 } from '../schema/standard-schema.js';
import type { SchemaInput, SchemaOutput } from '../schema/schema-types.js';
import { isZodSchema } from '../schema/zod-schema.js';
import { toSchemaIssue } from '../schema/schema-issues.js';
import { strippingUndeclaredKeys } from '../schema/undeclared-keys.js';
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
  /** The schema given to defineConfig (zod or another Standard Schema). */
  readonly schema: StandardSchemaV1<unknown, Output>;
  readonly secrets: readonly string[];
  /**
   * Parses `source`, any object of variables (default: `process.env` where the runtime has it,
   * else nothing; a Worker's `Env` interface fits as it is), and returns
   * the frozen output; throws a {@link ConfigError} listing every problem by variable name.
   */
  load(source?: object): Frozen<Output>;
}

/**
 * Declares the app's configuration with one schema over its environment: a zod schema, or any
 * other Standard Schema (valibot, ArkType, ...: every variable of the source is then given to it,
 * since only a zod object's keys can be read). Injected, it is
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
export function defineConfig<S extends StandardSchemaV1<Record<string, unknown>, unknown>>(schema: S, options: ConfigOptions<SchemaInput<S>> = {}): Config<SchemaOutput<S>> {
  type Output = SchemaOutput<S>;
  const name = options.name ?? 'Config';
  const secrets: readonly string[] = Object.freeze([...(options.secrets ?? [])]);
  const secretSet: ReadonlySet<string> = new Set(secrets);
  const emptyIsUnset = options.emptyIsUnset ?? true;

  const variables = isZodSchema(schema) ? variablesOf(schema) : undefined;
  const load = (source: object = processEnv()): Frozen<Output> => {
    const input = read(source as ConfigSource, variables, emptyIsUnset);
    const result = parseConfig(schema, name, input);
    if (!result.success) throw new ConfigError(name, configProblems(result.issues, input, secretSet));
    return deepFreeze(result.data as Output);
  };

  const config: Config<Output> = Object.freeze({
    kind: 'token' as const,
    name,
    schema: schema as StandardSchemaV1<unknown, Output>,
    secrets,
    load,
    [DEFAULT_PROVIDER]: (): ProviderInput => ({ provide: config, useFactory: (env: ConfigSource) => load(env), inject: [ENV] }),
  });
  return config;
}

/**
 * Parses the variables read: zod's `safeParse` with zod's issues (what configProblems reads of
 * them), or another library's `~standard.validate`. For the latter every variable of the source
 * is read (its object's keys cannot be read), and its issues become `{ code, path, message }`, a
 * variable that is not set reported as such (`invalid_type`). Checks must be synchronous: an
 * asynchronous validation is a TypeError naming the configuration.
 */
function parseConfig(schema: StandardSchemaV1, name: string, input: ConfigSource): { success: true; data: unknown } | { success: false; issues: readonly ConfigIssue[] } {
  if (isZodSchema(schema)) {
    const result = schema.safeParse(input);
    return result.success ? { success: true, data: result.data } : { success: false, issues: result.error.issues as readonly ConfigIssue[] };
  }
  // Every variable is given: an ArkType object, which keeps undeclared keys, is made to drop them.
  const result = strippingUndeclaredKeys(schema)['~standard'].validate(input);
  if (result instanceof Promise) throw new TypeError(`${name}: the configuration schema validates asynchronously; checks must be synchronous`);
  if (!result.issues) return { success: true, data: result.value };
  return {
    success: false,
    issues: result.issues.map((raw) => {
      const issue = toSchemaIssue(raw);
      const unset = issue.path.length === 1 && input[String(issue.path[0])] === undefined;
      return unset ? { ...issue, code: 'invalid_type', expected: 'a value' } : issue;
    }),
  };
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
