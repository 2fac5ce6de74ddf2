import type { Logger } from '../../index.js';
import type { Mailer } from './mailer.js';

/**
 * A {@link Mailer} for development: it writes each mail (recipient, subject and the text body,
 * links and their tokens included) to `logger` at info level instead of sending it, so a
 * developer can follow a verification link without an SMTP server. The auth module uses it when
 * `accounts.mailer` is not set and warns once at boot; never use it in production, where it
 * would write account tokens into the logs and deliver nothing.
 *
 * @example
 * accounts: { mailer: loggingMailer(jsonLogger()) }
 */
export function loggingMailer(logger: Logger): Mailer {
  return {
    send: async (message) => {
      logger.info({ mail: { to: message.to, subject: message.subject }, text: message.text }, `mail to ${message.to}: ${message.subject}`);
    },
  };
}
