/**
 * One mail to send: plain text and HTML alternatives of the same content. `from` is optional:
 * the mailer's own default sender applies when it is missing.
 *
 * @example
 * const message: MailMessage = { to: 'ada@example.com', subject: 'Verify your address', text: 'Open https://...', html: '<p>Open <a href="https://...">the link</a></p>' };
 */
export interface MailMessage {
  readonly to: string;
  readonly from?: string | undefined;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/**
 * The port through which the account lifecycle sends mail. `send` resolves once the message has
 * been handed over (to an SMTP server, a queue, an API) and rejects when it could not be.
 * `smtpMailer` (nodemailer) and `loggingMailer` (development) implement it; so can a team's
 * own transport (an HTTP mail API, a job queue).
 *
 * @example
 * const mailer: Mailer = { send: async (message) => { await queue.push('mail', message); } };
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
