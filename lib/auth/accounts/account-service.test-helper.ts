// Fixtures of the account service tests: a real Argon2id hasher that counts its calls, a mailer
// that keeps what it was handed, and the session operations recorded.
import { createManualClock, type ManualClock } from '../../index.js';
import type { Mailer, MailMessage } from './mail/index.js';
import { createPasswordHasher, type PasswordHasher } from '../credentials/password/index.js';
import { AccountService } from './account-service.js';
import type { AccountServiceOptions, AccountSessions } from './account-service-options.js';
import { InMemoryAccountStore } from './in-memory-account-store.js';

export interface TestClaims {
  readonly sub: string;
  readonly roles: string[];
}

export interface CountingHasher extends PasswordHasher {
  readonly calls: { hash: number; verify: number };
}

let shared: Promise<PasswordHasher> | undefined;

/** A real hasher (the default backend) whose hash and verify calls are counted. */
export async function countingHasher(): Promise<CountingHasher> {
  shared ??= createPasswordHasher();
  const inner = await shared;
  const calls = { hash: 0, verify: 0 };
  return {
    calls,
    hash: async (password) => {
      calls.hash++;
      return inner.hash(password);
    },
    verify: async (password, phc) => {
      calls.verify++;
      return inner.verify(password, phc);
    },
  };
}

/** A mailer that keeps every message it is handed. */
export function capturingMailer(): Mailer & { readonly sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return { sent, send: async (message) => void sent.push(message) };
}

/** The `token=` value of the first link in a mail's text. */
export function tokenOf(message: MailMessage | undefined): string {
  const match = /[?&]token=([A-Za-z0-9_-]+)/.exec(message?.text ?? '');
  if (match?.[1] === undefined) throw new Error(`no token= link in the mail: ${message?.subject ?? '(no mail)'}`);
  return match[1];
}

export interface AccountFixture {
  readonly service: AccountService<TestClaims>;
  readonly store: InMemoryAccountStore<TestClaims>;
  readonly hasher: CountingHasher;
  readonly mailer: ReturnType<typeof capturingMailer>;
  readonly clock: ManualClock;
  readonly sessionCalls: string[];
  /** The mails sent so far to `to`, after the outbox settled. */
  mailsTo(to: string): Promise<MailMessage[]>;
}

/** An account service on an in-memory store, a manual clock and the fixtures above. */
export async function accountFixture(overrides: Partial<AccountServiceOptions<TestClaims>> = {}): Promise<AccountFixture> {
  const store = new InMemoryAccountStore<TestClaims>();
  const hasher = await countingHasher();
  const mailer = capturingMailer();
  const clock = createManualClock(Date.parse('2026-11-26T00:00:00Z'));
  const sessionCalls: string[] = [];
  const sessions: AccountSessions = {
    revokeAllSessions: async (subject) => void sessionCalls.push(`revokeAll ${subject}`),
    revokeOtherSessions: async (subject, keep) => void sessionCalls.push(`endOthers ${subject} keep ${keep}`),
  };
  const service = new AccountService<TestClaims>({
    store,
    sessions,
    passwordHasher: hasher,
    mailer,
    clock,
    links: 'https://app.example.test/',
    newAccountClaims: ({ subject }) => ({ sub: subject, roles: ['member'] }),
    ...overrides,
  });
  const mailsTo = async (to: string): Promise<MailMessage[]> => {
    await service.settled();
    return mailer.sent.filter((m) => m.to === to);
  };
  return { service, store, hasher, mailer, clock, sessionCalls, mailsTo };
}
