/**
 * An app whose only routes are the ones the auth module mounts: in-memory stores that count what
 * they are asked to write, a stand-in hasher that counts its hashes, a mailer that keeps the mails,
 * a manual clock. Requests may come from a client address (as a server adapter would give it).
 * Not exported from the package.
 */
import type { z } from 'zod';
import { createManualClock, type App, type ManualClock, type RateLimitCounter } from '../../index.js';
import { incomingFromRequest, responseOf } from '../../internal/request-path.js';
import { defineAuthModule, InMemoryAccountStore, InMemoryRefreshTokenStore, type AuthModuleOptions, type MailMessage, type NewAccount, type NewAccountToken } from '../index.js';
import { authTestApp, TestClaims } from '../core/auth-test-app.test-helper.js';

export const NOW = Date.parse('2026-11-27T12:00:00.000Z');
type Claims = z.output<typeof TestClaims>;
export const ALICE = { email: 'alice@acme.test', subject: 'u_alice', password: 'alice-password-1' };

/** What the stores and the hasher were asked to do. */
export interface Work {
  hashes: number;
  accountsCreated: number;
  tokensIssued: number;
}

/** What a test holds. */
export interface RoutesTestApp {
  readonly app: App;
  readonly clock: ManualClock;
  readonly work: Work;
  readonly mails: MailMessage[];
  readonly auth: ReturnType<typeof defineAuthModule<typeof TestClaims>>;
  /** A request, from `clientAddress` when given (else none, as `app.request`). */
  call(method: string, path: string, options?: { json?: unknown; headers?: Record<string, string>; clientAddress?: string }): Promise<{ status: number; headers: Headers; json: unknown }>;
  /** Signs ALICE in over `POST /auth/sign-in` and answers the pair. */
  signIn(userAgent?: string): Promise<{ accessToken: string; refreshToken: string }>;
}

/**
 * The app, with `routes` (default every group) and any other options of `forRoot` over the defaults.
 *
 * @example
 * const { call } = await routesTestApp();
 * await call('POST', '/auth/sign-up', { json: { email, password }, clientAddress: '203.0.113.7' });
 */
export async function routesTestApp(options: Partial<AuthModuleOptions<Claims>> = {}, mailLimit?: RateLimitCounter): Promise<RoutesTestApp> {
  const clock = createManualClock(NOW);
  const work: Work = { hashes: 0, accountsCreated: 0, tokensIssued: 0 };
  const mails: MailMessage[] = [];
  class CountingAccountStore extends InMemoryAccountStore<Claims> {
    override async createAccount(account: NewAccount<Claims>): Promise<boolean> {
      work.accountsCreated++;
      return super.createAccount(account);
    }
    override async issueToken(token: NewAccountToken): Promise<void> {
      work.tokensIssued++;
      return super.issueToken(token);
    }
  }
  const store = new CountingAccountStore();
  await store.createAccount({ subject: ALICE.subject, email: ALICE.email, passwordHash: `plain:${ALICE.password}`, claims: { sub: ALICE.subject, roles: ['member'] }, emailVerified: true });
  work.accountsCreated = 0;
  const passwordHasher = {
    hash: async (password: string) => {
      work.hashes++;
      return `plain:${password}`;
    },
    verify: async (password: string, phc: string) => phc === `plain:${password}`,
  };
  const auth = defineAuthModule(TestClaims);
  const app = await authTestApp({
    auth,
    stores: [{ provide: CountingAccountStore, useValue: store }, { provide: InMemoryRefreshTokenStore, useValue: new InMemoryRefreshTokenStore(clock) }],
    forRoot: (Stores) => ({
      clock,
      issuing: { refreshTokenStore: { useExisting: InMemoryRefreshTokenStore }, imports: [Stores], passwordHasher },
      accounts: { store: { useExisting: CountingAccountStore }, imports: [Stores], links: 'https://app.test', newAccountClaims: ({ subject }) => ({ sub: subject, roles: ['member'] }), mailer: { send: async (mail) => void mails.push(mail) }, ...(mailLimit === undefined ? {} : { mailLimit }) },
      browser: {},
      routes: { json: true, browser: true, accounts: true, sessions: true },
      ...options,
    }),
  });
  // The boot's own hash (the dummy hash unknown identifiers are checked against) is no request's work.
  work.hashes = 0;
  async function call(method: string, path: string, init: { json?: unknown; headers?: Record<string, string>; clientAddress?: string } = {}) {
    const headers: Record<string, string> = { ...init.headers };
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    const request = new Request(`http://localhost${path}`, { method, headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) });
    const response = await responseOf((incoming, _params, reply) => app.handle(incoming, reply), incomingFromRequest(request, init.clientAddress));
    const text = await response.text();
    return { status: response.status, headers: response.headers, json: text === '' ? undefined : (JSON.parse(text) as unknown) };
  }
  async function signIn(userAgent = 'Test/1.0') {
    const answer = await call('POST', '/auth/sign-in', { json: { identifier: ALICE.email, password: ALICE.password }, headers: { 'user-agent': userAgent } });
    if (answer.status !== 200) throw new Error(`sign-in answered ${answer.status}`);
    return answer.json as { accessToken: string; refreshToken: string };
  }
  return { app, clock, work, mails, auth, call, signIn };
}
