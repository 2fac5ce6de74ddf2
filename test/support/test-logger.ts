import type { Logger } from '../../lib/index.js';

/** What a {@link createTestLogger} logger received, in order. */
export interface RecordedLog {
  readonly errors: { readonly message: string; readonly error: unknown }[];
  readonly infos: { readonly message: string; readonly fields: Readonly<Record<string, unknown>> | undefined }[];
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
  const log: RecordedLog = { errors: [], infos: [] };
  return {
    log,
    logger: {
      error: (message, error) => void log.errors.push({ message, error }),
      info: (message, fields) => void log.infos.push({ message, fields }),
    },
  };
}
