import type { LogFields, Logger } from '../../lib/index.js';

/** One line a {@link createTestLogger} logger received: its message, fields (the child's bindings included) and `err`. */
export interface RecordedLine {
  readonly message: string;
  readonly fields: LogFields;
  /** `fields.err`: the error the line reports, if any. */
  readonly error: unknown;
}

/** What a {@link createTestLogger} logger received, by level, in order. */
export interface RecordedLog {
  readonly errors: RecordedLine[];
  readonly warnings: RecordedLine[];
  readonly infos: RecordedLine[];
}

/**
 * A logger for tests that expect errors: it records instead of printing, so an expected 5xx
 * leaves no stack trace on stderr and the test can assert what was logged.
 *
 * @example
 * const { logger, log } = createTestLogger();
 * const app = await createApp(AppModule, { logger });
 * expect(log.errors[0]?.message).toMatch(/HTTP 503/);
 */
export function createTestLogger(): { logger: Logger; log: RecordedLog } {
  const log: RecordedLog = { errors: [], warnings: [], infos: [] };
  const make = (bindings: LogFields): Logger => {
    const record = (into: RecordedLine[]) => (fields: LogFields, message: string) => void into.push({ message, fields: { ...bindings, ...fields }, error: fields.err });
    return { error: record(log.errors), warn: record(log.warnings), info: record(log.infos), debug: () => undefined, child: (more) => make({ ...bindings, ...more }) };
  };
  return { log, logger: make({}) };
}
