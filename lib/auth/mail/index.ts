// Public surface of mail: the Mailer port, the SMTP mailer (nodemailer), the development
// logging mailer and the account mail templates.
export type { Mailer, MailMessage } from './mailer.js';
export { smtpMailer } from './smtp-mailer.js';
export type { SmtpMailer, SmtpMailerOptions, SmtpTransportOptions } from './smtp-mailer.js';
export { loggingMailer } from './logging-mailer.js';
export { defaultAccountMailTemplates } from './account-mail-templates.js';
export type { AccountMailContext, AccountMailTemplates, MailContent } from './account-mail-templates.js';
export { escapeHtml } from './escape-html.js';
export { mailJobs } from './mail-jobs.js';
export type { MailJobsOptions } from './mail-jobs.js';
