// smtpMailer against a real SMTP server (nodemailer's smtp-server) started here on 127.0.0.1,
// port 0: the account service signs up through it, the test reads the delivered mail, takes the
// link's token= and verifies with it.
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLogger } from '../../../index.js';
import { AccountService } from '../account-service.js';
import { countingHasher, type TestClaims } from '../account-service.test-helper.js';
import { InMemoryAccountStore } from '../in-memory-account-store.js';
import { smtpMailer, type SmtpMailer } from './smtp-mailer.js';

interface Delivered {
  readonly to: string[];
  readonly from: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

const REFUSED = 'refused@example.test';
const delivered: Delivered[] = [];
let server: SMTPServer;
let url = '';
const mailers: SmtpMailer[] = [];

beforeAll(async () => {
  server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      callback(address.address === REFUSED ? Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }) : undefined);
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          delivered.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: mail.html === false ? '' : (mail.html ?? ''),
          });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await Promise.all(mailers.map((m) => m.close()));
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function mailer(): SmtpMailer {
  const created = smtpMailer(url, { from: 'Acme <no-reply@acme.test>' });
  mailers.push(created);
  return created;
}

async function accountService(logLines: string[] = []) {
  return new AccountService<TestClaims>({
    store: new InMemoryAccountStore<TestClaims>(),
    sessions: { revokeAllSessions: async () => undefined, revokeOtherSessions: async () => undefined },
    passwordHasher: await countingHasher(),
    mailer: mailer(),
    links: 'https://app.acme.test',
    appName: 'Acme',
    newAccountClaims: ({ subject }) => ({ sub: subject, roles: [] }),
    logger: jsonLogger({ write: (line) => logLines.push(line) }),
  });
}

describe('smtpMailer', () => {
  it('delivers text and HTML from the default sender', async () => {
    await mailer().send({ to: 'ada@example.test', subject: 'Hello', text: 'Plain body', html: '<p>HTML body</p>' });
    const mail = delivered.find((m) => m.subject === 'Hello');
    expect(mail).toMatchObject({ to: ['ada@example.test'], from: 'no-reply@acme.test', text: 'Plain body' });
    expect(mail?.html).toContain('<p>HTML body</p>');
  });

  it('rejects when the server refuses the recipient', async () => {
    await expect(mailer().send({ to: REFUSED, subject: 'x', text: 'x', html: 'x' })).rejects.toThrow(/550|mailbox unavailable/);
  });

  it('carries a sign-up from the account service to the mailbox, and the mailed token verifies the address', async () => {
    const service = await accountService();
    await service.signUp('Grace@Example.test', 'correct horse battery');
    await service.settled();
    const mail = delivered.find((m) => m.to.includes('grace@example.test'));
    expect(mail?.subject).toBe('Verify your address for Acme');
    const link = /https:\/\/app\.acme\.test\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '');
    expect(link?.[1], 'a link with token= in the received text').toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail?.html, 'the same link in the received HTML').toContain(`verify-email?token=${link?.[1]}`);
    await service.verifyEmail(link?.[1] ?? '');
    await expect(service.verifyEmail(link?.[1] ?? ''), 'the link works once').rejects.toMatchObject({ status: 400 });
  });

  it('a refused delivery is logged by kind, without the link or its token', async () => {
    const lines: string[] = [];
    const service = await accountService(lines);
    await service.signUp(REFUSED, 'correct horse battery');
    await service.settled();
    expect(lines.some((l) => l.includes('the verifyEmail mail failed')), 'the failure is logged').toBe(true);
    expect(lines.join('\n'), 'no token in the log').not.toMatch(/token=/);
  });
});
