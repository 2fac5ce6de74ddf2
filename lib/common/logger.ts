/**
 * Where the framework reports what it must not show to clients: unexpected errors (500s, a
 * stream that failed half-way, an observer that threw) and informational lines (the access log).
 * A `pino` or `console`-like object fits.
 *
 * @example
 * const logger: Logger = { error: (message, error) => console.error(message, error), info: console.log };
 */
export interface Logger {
  error(message: string, error?: unknown): void;
  info(message: string, fields?: Readonly<Record<string, unknown>>): void;
}

/**
 * The default logger: `console.error` and `console.log`.
 *
 * @example
 * createApp(AppModule, { logger: consoleLogger });
 */
export const consoleLogger: Logger = {
  error: (message, error) => console.error(message, error),
  info: (message, fields) => console.log(message, fields ?? ''),
};
