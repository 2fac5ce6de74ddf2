// Never a link in a log outside development (ASVS 5.0 16.2.5): without accounts.mailer, production
// refuses to boot, development logs mails with their links, and anything else redacts them.
import { describe, expect, it } from 'vitest';
import { jsonLogger, type ConfigSource } from '../../../index.js';
import { InMemoryRefreshTokenStore } from '../../sessions/issuing/index.js';
import { AuthConfigError, defineAuthModule } from '../../index.js';
import { InMemoryAccountStore } from '../in-memory-account-store.js';
import { authTestApp, plainPasswordHasher as passwordHasher, TestClaims as Claims } from '../../core/auth-test-app.test-helper.js';

/** An app with accounts and no mailer, in the environment `env`; its log lines. */
async function bootWithoutMailer(env: ConfigSource) {
  const lines: { level: string; msg: string; text?: string }[] = [];
  const auth = defineAuthModule(Claims);
  const app = await authTestApp({
    auth,
    forRoot: () => ({
      issuing: { refreshTokenStore: InMemoryRefreshTokenStore, passwordHasher },
      accounts: { store: InMemoryAccountStore, links: 'https://app.example.test', newAccountClaims: ({ subject }) => ({ sub: subject, roles: ['member'] }) },
    }),
    app: { env, logger: jsonLogger({ write: (line) => lines.push(JSON.parse(line) as (typeof lines)[number]) }) },
  });
  const accounts = app.get(auth.ACCOUNT_SERVICE);
  /** Signs up and answers the logged mail's text. */
  const mailText = async () => {
    await accounts.signUp('ada@example.test', 'correct horse battery');
    await accounts.settled();
    return lines.find((line) => line.msg.startsWith('mail to ada@example.test'))?.text ?? '';
  };
  return { lines, mailText };
}

describe('account mails without a mailer', () => {
  it("NODE_ENV=production: the app refuses to boot, and says why and what to set", async () => {
    const booting = bootWithoutMailer({ NODE_ENV: 'production' });
    await expect(booting).rejects.toBeInstanceOf(AuthConfigError);
    await expect(booting).rejects.toThrow(/no mailer configured while NODE_ENV is 'production'.*Set accounts\.mailer/);
  });

  it('NODE_ENV=development: the mail is logged with its link, and the boot warns', async () => {
    const { lines, mailText } = await bootWithoutMailer({ NODE_ENV: 'development' });
    expect(lines.some((line) => line.level === 'warn' && /only written to this log/.test(line.msg)), 'boot warning').toBe(true);
    expect(await mailText()).toMatch(/https:\/\/app\.example\.test\/verify-email\?token=[A-Za-z0-9_-]{20,}/);
  });

  it('NODE_ENV unset: the mail is logged with its link redacted, and the boot says so', async () => {
    const { lines, mailText } = await bootWithoutMailer({});
    expect(lines.some((line) => line.level === 'warn' && /links redacted/.test(line.msg)), 'boot warning names the redaction').toBe(true);
    const text = await mailText();
    expect(text, 'the link is replaced').toContain('[link redacted]');
    expect(text, 'no link, no token').not.toMatch(/https?:\/\/|token=/);
  });

  it('any other NODE_ENV (staging) redacts too', async () => {
    const { mailText } = await bootWithoutMailer({ NODE_ENV: 'staging' });
    expect(await mailText()).not.toMatch(/https?:\/\//);
  });
});
