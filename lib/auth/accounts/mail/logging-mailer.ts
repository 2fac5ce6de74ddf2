import type { Logger } from '../../../index.js';
import type { Mailer } from './mailer.js';

/**
 * Options of {@link loggingMailer}.
 *
 * @example
 * loggingMailer(logger, { links: 'redacted' });
 */
export interface LoggingMailerOptions {
  /**
   * `shown` (default) writes the text as it is, links and their tokens included (development:
   * follow a link without an SMTP server); `redacted` replaces every link with
   * `[link redacted]`, so the log never holds a token that acts on an account.
   */
  readonly links?: 'shown' | 'redacted';
}

/** Any http(s) URL in a mail's text. */
const LINK = /\bhttps?:\/\/\S+/gi;

/**
 * A {@link Mailer} for development: it writes each mail (recipient, subject and the text body) to
 * `logger` at info level instead of sending it, so a developer can follow a verification link
 * without an SMTP server. Without `accounts.mailer` the auth module uses it by the app's
 * environment: links shown when `NODE_ENV` is `development` or `test`, redacted when it is unset
 * or anything else, and no boot at all when it is `production` (a mail must be delivered, and
 * its link must never reach a log there).
 *
 * @example
 * accounts: { mailer: loggingMailer(jsonLogger()) }
 */
export function loggingMailer(logger: Logger, options: LoggingMailerOptions = {}): Mailer {
  const redact = options.links === 'redacted';
  return {
    send: async (message) => {
      const text = redact ? message.text.replace(LINK, '[link redacted]') : message.text;
      logger.info({ mail: { to: message.to, subject: message.subject }, text }, `mail to ${message.to}: ${message.subject}`);
    },
  };
}
