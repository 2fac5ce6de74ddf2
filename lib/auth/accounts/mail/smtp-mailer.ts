import { importOptionalModule } from '../../../internal/primitives.js';
import type { Mailer, MailMessage } from './mailer.js';

/**
 * nodemailer's SMTP transport options (host, port, secure, auth, pool, tls, ...), passed through
 * as given; see https://nodemailer.com/smtp/. Typed loosely here so that the package's types
 * stay an optional install.
 *
 * @example
 * const transport: SmtpTransportOptions = { host: 'smtp.example.com', port: 587, auth: { user: 'apikey', pass: process.env.SMTP_PASSWORD } };
 */
export interface SmtpTransportOptions {
  readonly host?: string;
  readonly port?: number;
  readonly secure?: boolean;
  readonly auth?: { readonly user?: string; readonly pass?: string };
  readonly [option: string]: unknown;
}

/**
 * Options of {@link smtpMailer}.
 *
 * @example
 * smtpMailer(process.env.SMTP_URL!, { from: 'Acme <no-reply@acme.example>' });
 */
export interface SmtpMailerOptions {
  /** The sender of messages that name none; default nodemailer's (the SMTP user). */
  readonly from?: string;
}

/**
 * A {@link Mailer} that sends through SMTP with nodemailer; `close()` ends pooled connections.
 *
 * @example
 * const mailer: SmtpMailer = smtpMailer('smtp://127.0.0.1:2525');
 * await mailer.close();
 */
export interface SmtpMailer extends Mailer {
  close(): Promise<void>;
}

interface Transporter {
  sendMail(message: Record<string, unknown>): Promise<unknown>;
  close(): void;
}

interface NodemailerModule {
  createTransport(transport: string | SmtpTransportOptions, defaults?: Record<string, unknown>): Transporter;
}

function toNodemailer(loaded: unknown): NodemailerModule {
  const candidates = [loaded, (loaded as { default?: unknown } | null)?.default];
  for (const candidate of candidates) {
    if (typeof (candidate as NodemailerModule | null)?.createTransport === 'function') return candidate as NodemailerModule;
  }
  throw new Error('smtpMailer: the nodemailer module has no createTransport');
}

/**
 * A {@link Mailer} on nodemailer's SMTP transport: a connection URL (`smtp://user:pass@host:587`,
 * `smtps://...` for implicit TLS) or transport options. nodemailer is an optional peer
 * dependency (`npm install nodemailer`), imported on the first `send`, so an app that never
 * sends mail never loads it; when it is missing, `send` rejects saying so.
 *
 * @example
 * AuthModule.forRoot({ ..., accounts: { ..., mailer: smtpMailer(process.env.SMTP_URL!, { from: 'Acme <no-reply@acme.example>' }) } });
 */
export function smtpMailer(transport: string | SmtpTransportOptions, options: SmtpMailerOptions = {}): SmtpMailer {
  let transporter: Promise<Transporter> | undefined;
  const open = (): Promise<Transporter> => {
    transporter ??= importOptionalModule('nodemailer').then(
      (loaded) => toNodemailer(loaded).createTransport(transport, options.from === undefined ? {} : { from: options.from }),
      (error: unknown) => {
        transporter = undefined;
        throw new Error('smtpMailer needs the nodemailer package: npm install nodemailer', { cause: error });
      },
    );
    return transporter;
  };
  return {
    send: async (message: MailMessage) => {
      const sender = await open();
      await sender.sendMail({ to: message.to, ...(message.from === undefined ? {} : { from: message.from }), subject: message.subject, text: message.text, html: message.html });
    },
    close: async () => {
      const opened = transporter;
      transporter = undefined;
      if (opened !== undefined) (await opened).close();
    },
  };
}
