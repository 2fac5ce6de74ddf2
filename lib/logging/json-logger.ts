import type { LogFields, Logger, LogLevel } from './logger.js';
import { createRedactor } from './redact.js';

/**
 * Options of {@link jsonLogger}.
 *
 * @example
 * jsonLogger({ level: 'debug', redact: ['body.password'], write: (line) => lines.push(line) });
 */
export interface JsonLoggerOptions {
  /** The least severe level written. Default `info`. */
  readonly level?: LogLevel;
  /** Receives each line (one JSON object, no newline). Default: standard output (`console.log`). */
  readonly write?: (line: string) => void;
  /**
   * More field names (any depth, any case) or dot paths (`body.password`) to redact; the
   * credentials headers (`authorization`, `cookie`, `set-cookie`, `x-api-key`) always are.
   */
  readonly redact?: readonly string[];
  /** Fields on every line (for example `{ service: 'blog' }`). */
  readonly bindings?: LogFields;
  /** The clock for `time`. Default `Date.now`. */
  readonly now?: () => number;
}

const RANK: Readonly<Record<LogLevel, number>> = { debug: 20, info: 30, warn: 40, error: 50, silent: Number.POSITIVE_INFINITY };

/**
 * The default logger: one JSON object per line, `{"level":"info","time":...,"msg":...,...fields}`,
 * with the bindings of `child` loggers (a request's id, route and trace) and credentials
 * redacted. Lines below the level threshold cost one comparison.
 *
 * @example
 * const app = await createApp(AppModule, { logger: jsonLogger({ level: 'warn' }) });
 * // {"level":"error","time":1764000000000,"msg":"Unhandled error while serving a request","requestId":"...","err":{...}}
 */
export function jsonLogger(options: JsonLoggerOptions = {}): Logger {
  const threshold = RANK[options.level ?? 'info'];
  const write = options.write ?? ((line: string) => console.log(line));
  const redact = createRedactor(options.redact ?? []);
  const now = options.now ?? Date.now;
  const make = (bindings: LogFields): Logger => {
    const line = (level: Exclude<LogLevel, 'silent'>) => (fields: LogFields, message: string) => {
      if (RANK[level] < threshold) return;
      try {
        write(JSON.stringify({ level, time: now(), msg: message, ...redact({ ...bindings, ...fields }) }));
      } catch {
        // A field JSON cannot hold (a cycle past the depth bound's reach is impossible, but a
        // throwing getter is not): the line is still written, without its fields.
        write(JSON.stringify({ level, time: now(), msg: message, logError: 'fields could not be serialised' }));
      }
    };
    return { error: line('error'), warn: line('warn'), info: line('info'), debug: line('debug'), child: (more) => make({ ...bindings, ...more }) };
  };
  return make(options.bindings ?? {});
}

/**
 * A logger that writes nothing, for tests and benchmarks.
 *
 * @example
 * createApp(AppModule, { logger: silentLogger });
 */
export const silentLogger: Logger = jsonLogger({ level: 'silent' });
