import { DEFAULT_PROVIDER } from '../di/default-provider.js';
import type { ProviderInput } from '../di/provider.js';
import type { Token } from '../di/token.js';

/**
 * Where a configuration is read from: variable name -> value. `process.env` on Node, Bun and
 * Deno; a Worker's `env` (whose bindings may be other than strings).
 *
 * @example
 * const source: ConfigSource = { PORT: '8080', DATABASE_URL: 'postgres://localhost/app' };
 */
export type ConfigSource = Readonly<Record<string, unknown>>;

/**
 * The runtime's environment variables (`process.env`, which Node, Bun and Deno 2 have), or an
 * empty source where there is none (Workers, browsers): there, give the app its `env`.
 *
 * @example
 * AppConfig.load(processEnv());
 */
export function processEnv(): ConfigSource {
  const env = (globalThis as { process?: { env?: unknown } }).process?.env;
  return typeof env === 'object' && env !== null ? (env as ConfigSource) : {};
}

/**
 * The app's configuration source, injectable: `createApp(AppModule, { env })` when given (a
 * Worker's or Deno's `env`, a test's variables), else {@link processEnv}. Every `defineConfig`
 * reads it; no module needs to provide it.
 *
 * @example
 * const FEATURES = defineFactory(createToken<string[]>('FEATURES'), [ENV], (env) => String(env.FEATURES ?? '').split(','));
 */
export const ENV: Token<ConfigSource> = Object.freeze({
  kind: 'token',
  name: 'ENV',
  [DEFAULT_PROVIDER]: (): ProviderInput => ({ provide: ENV, useFactory: processEnv }),
}) as Token<ConfigSource>;
