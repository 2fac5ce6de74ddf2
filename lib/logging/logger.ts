import { createToken, type Token } from '../di/token.js';

/**
 * Structured fields of a log line. `err` holds an error (serialised with its type, message and
 * stack by the default logger, as pino's `err` serializer does).
 *
 * @example
 * const fields: LogFields = { route: 'GET /posts/:id', status: 500, err: error };
 */
export type LogFields = Readonly<Record<string, unknown>>;

/**
 * Where the framework reports what it must not show to clients (unexpected errors, a stream
 * that failed half-way) and what operators read (the access line). Shaped like pino's logger,
 * fields first and the message second, so a `pino()` instance is a Logger as it is; `child`
 * gives each request a logger bound to its id, route and trace.
 *
 * @example
 * import pino from 'pino';
 * const app = await createApp(AppModule, { logger: pino() });
 * logger.error({ err: error, route: 'GET /posts/:id' }, 'Unhandled error while serving a request');
 */
export interface Logger {
  error(fields: LogFields, message: string): void;
  warn(fields: LogFields, message: string): void;
  info(fields: LogFields, message: string): void;
  debug(fields: LogFields, message: string): void;
  /** A logger that adds `bindings` to every line it writes. */
  child(bindings: LogFields): Logger;
}

/**
 * The levels, least to most severe; a logger writes its threshold and above. `silent` writes nothing.
 *
 * @example
 * jsonLogger({ level: 'warn' });
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/**
 * The app's logger (the `logger` option of createApp, else its JSON logger), injectable in every
 * module without an import: what a provider logs goes where the framework's own lines go.
 *
 * @example
 * defineFactory(Mailer, [LOGGER], (logger) => new Mailer(logger.child({ component: 'mailer' })));
 */
// Annotated: inferred, the declaration would name Token through lib/index.ts (a cycle in the
// declaration build: Rollup's circular-chunk warnings).
export const LOGGER: Token<Logger> = createToken<Logger>('Logger');
