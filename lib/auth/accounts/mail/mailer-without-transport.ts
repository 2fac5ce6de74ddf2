import type { ConfigSource, Logger } from '../../../index.js';
import { AuthConfigError } from '../../shared/auth-config-error.js';
import { loggingMailer } from './logging-mailer.js';
import type { Mailer } from './mailer.js';

/**
 * What the auth module does with account mails when `accounts.mailer` is not set, by the app's
 * `NODE_ENV` (the `ENV` source: `createApp(root, { env })`, else the process's environment):
 *
 * | NODE_ENV | account mails | at boot |
 * | --- | --- | --- |
 * | `development`, `test` | written to the log, links included (follow them without SMTP) | a warning |
 * | `production` | none: the app does not start | `AuthConfigError`: a reset link is a credential, and mail must be delivered |
 * | unset, anything else | written to the log with every link `[link redacted]` | a warning saying so |
 *
 * So a link never reaches a log outside development (ASVS 5.0 16.2.5), and a deployment that
 * forgot its mailer without saying `production` still keeps links out of its logs (fail closed).
 *
 * @throws AuthConfigError when `NODE_ENV` is `production`.
 * @example
 * const mailer = accounts.mailer ?? mailerWithoutTransport(env, logger);
 */
export function mailerWithoutTransport(env: ConfigSource, logger: Logger): Mailer {
  const environment = env.NODE_ENV;
  if (environment === 'production') {
    throw new AuthConfigError(
      "accounts: no mailer configured while NODE_ENV is 'production': account mails carry links that act on accounts, which must be delivered and never written to a log. Set accounts.mailer (e.g. smtpMailer(process.env.SMTP_URL)); refusing to start.",
    );
  }
  if (environment === 'development' || environment === 'test') {
    logger.warn({ event: 'auth.mail.logged' }, `accounts: no mailer configured, so account mails (with their links) are only written to this log (NODE_ENV is '${environment}'); set accounts.mailer before production`);
    return loggingMailer(logger);
  }
  logger.warn(
    { event: 'auth.mail.redacted' },
    "accounts: no mailer configured and NODE_ENV is not 'development': account mails are written to this log with their links redacted, and nobody receives them. Set accounts.mailer, or NODE_ENV=development to see the links.",
  );
  return loggingMailer(logger, { links: 'redacted' });
}
