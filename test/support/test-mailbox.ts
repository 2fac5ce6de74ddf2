import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One mail the in-test SMTP server accepted, parsed as a mail client would read it. */
export interface ReceivedMail {
  /** The envelope's recipients (RCPT TO), lower-case. */
  readonly to: readonly string[];
  readonly from: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string | undefined;
}

/**
 * A real SMTP server (nodemailer's `smtp-server`) on 127.0.0.1, port 0, started by a test: the
 * app's `smtp://` mailer delivers to it and the test reads what arrived. No TLS, no auth: a
 * loopback server that exists for one test file.
 *
 * @example
 * const mailbox = await startMailbox();
 * const app = await boot({ SMTP_URL: mailbox.url });
 * const mail = await mailbox.next('dora@acme.test');
 * const token = tokenFromLink(mail);
 */
export interface Mailbox {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  readonly url: string;
  readonly received: readonly ReceivedMail[];
  /** The next mail to `to` not yet taken, waiting up to `timeoutMs` (default 10 s) for it. */
  next(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** `port`: 0 (default) for any free port; a given one to start the server again where a stopped one was. */
export async function startMailbox(port = 0): Promise<Mailbox> {
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          received.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
            from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: parsed.html === false ? undefined : parsed.html,
          });
          for (const wake of waiters) wake();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.server.address() as AddressInfo).port;

  function take(to: string): ReceivedMail | undefined {
    const mail = received.find((m) => !taken.has(m) && m.to.includes(to.toLowerCase()));
    if (mail !== undefined) taken.add(mail);
    return mail;
  }

  return {
    url: `smtp://127.0.0.1:${bound}`,
    received,
    next(to, timeoutMs = 10_000) {
      const ready = take(to);
      if (ready !== undefined) return Promise.resolve(ready);
      return new Promise<ReceivedMail>((resolve, reject) => {
        const wake = () => {
          const mail = take(to);
          if (mail === undefined) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`no mail to ${to} within ${timeoutMs} ms (received: ${received.map((m) => `${m.to.join(',')}: ${m.subject}`).join('; ') || 'none'})`));
        }, timeoutMs);
        waiters.add(wake);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The link in a mail's text, and the `token` query parameter it carries.
 *
 * @example
 * const { url, token } = linkIn(await mailbox.next('dora@acme.test'));
 */
export function linkIn(mail: ReceivedMail): { url: URL; token: string } {
  const match = /https?:\/\/[^\s<>"]+/.exec(mail.text);
  if (match === null) throw new Error(`no link in the mail "${mail.subject}": ${mail.text}`);
  const url = new URL(match[0]);
  const token = url.searchParams.get('token');
  if (token === null || token === '') throw new Error(`the link ${url.href} carries no token= in its query`);
  return { url, token };
}
