/**
 * An app with outside sign-in for the tests: one provider `oidc` (the test's oidc-provider),
 * browser sessions or JSON tokens, in-memory stores unless given, a manual clock. Not exported
 * from the package.
 */
import { z } from 'zod';
import { createManualClock, createToken, defineController, get, jsonLogger, post, type App, type ManualClock } from '../../index.js';
import { defineAuthModule, InMemoryCredentialStore, InMemoryRefreshTokenStore, type AuthService, type BrowserSessionOptions } from '../index.js';
import type { IdentityStore } from './identity-store.js';
import { InMemoryIdentityStore } from './in-memory-identity-store.js';
import { InMemorySignInFlowStore } from './in-memory-sign-in-flow-store.js';
import type { OutsideProviderOptions } from './outside-provider-options.js';
import type { OutsideSignInOptions } from './outside-sign-in-options.js';
import type { SignInFlowStore } from './sign-in-flow-store.js';
import { FLOW_BINDING_COOKIE } from './outside-sign-in.js';
import { authTestApp, plainPasswordHasher as passwordHasher, TestClaims as Claims } from '../core/auth-test-app.test-helper.js';

export const APP_ORIGIN = 'http://app.test';
export const BOB = { identifier: 'bob@acme.test', subject: 'u_bob', password: 'bob-pw' };
export const CAROL = { identifier: 'carol@acme.test', subject: 'u_carol', password: 'carol-pw' };

/** What a test holds of the app. */
export interface OutsideTestApp {
  readonly app: App;
  readonly clock: ManualClock;
  readonly identities: IdentityStore;
  readonly flows: SignInFlowStore;
  /** Sends a request with the browser's cookies (kept across calls, as a browser would). */
  browser(method: string, path: string, init?: { body?: string; headers?: Record<string, string> }): Promise<Response>;
  /** The browser's cookies by name. */
  readonly cookies: Map<string, string>;
  /** Every log line the app wrote, as written (JSON). */
  readonly logLines: string[];
  /** The security events among them, parsed. */
  securityEvents(): Record<string, unknown>[];
}

/**
 * Builds the app. `provider` is the `oidc` provider's options (issuer, client, fetch, ...).
 *
 * @example
 * const t = await outsideTestApp({ issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret, name: 'oidc' });
 */
export async function outsideTestApp(
  provider: OutsideProviderOptions,
  settings: { readonly browser?: BrowserSessionOptions | null; readonly outside?: Partial<OutsideSignInOptions>; readonly flows?: SignInFlowStore; readonly identities?: IdentityStore; readonly clock?: ManualClock; readonly passwordless?: readonly string[]; readonly recentAuthSeconds?: number } = {},
): Promise<OutsideTestApp> {
  const clock = settings.clock ?? createManualClock(Date.now());
  const definitions = defineAuthModule(Claims);
  const credentials = new InMemoryCredentialStore<z.output<typeof Claims>>(
    [BOB, CAROL].map((a) => ({ identifier: a.identifier, subject: a.subject, passwordHash: `plain:${a.password}`, claims: { sub: a.subject, roles: ['member'] } })),
  );
  const flows = settings.flows ?? new InMemorySignInFlowStore();
  const identities = settings.identities ?? new InMemoryIdentityStore();
  const FLOWS = createToken<SignInFlowStore>('TestFlows');
  const IDENTITIES = createToken<IdentityStore>('TestIdentities');
  const emails = new Map([[BOB.identifier, BOB.subject], [CAROL.identifier, CAROL.subject]]);
  const passwordless = new Set(settings.passwordless ?? []);
  const SignIn = z.object({ identifier: z.string(), password: z.string() });
  const me = defineController({
    name: 'Me',
    inject: [definitions.AUTH_SERVICE],
    routes: (auth: AuthService) => ({
      me: get('/me', { guards: [definitions.AccountGuard] }, (ctx) => ({ sub: definitions.getCurrentUser(ctx)?.sub })),
      signIn: post('/test/sign-in', { body: SignIn }, async (ctx) => ({ accessToken: (await auth.signIn(ctx.body.identifier, ctx.body.password)).accessToken })),
    }),
  });
  const browser = settings.browser === undefined ? {} : settings.browser;
  const logLines: string[] = [];
  const app = await authTestApp({
    auth: definitions,
    stores: [
      { provide: InMemoryCredentialStore, useValue: credentials },
      { provide: InMemoryRefreshTokenStore, useValue: new InMemoryRefreshTokenStore(clock) },
      { provide: FLOWS, useValue: flows },
      { provide: IDENTITIES, useValue: identities },
    ],
    forRoot: (Stores) => ({
      issuer: 'outside-test-app',
      audience: 'outside-test-app',
      clock,
      ...(settings.recentAuthSeconds === undefined ? {} : { recentAuthSeconds: settings.recentAuthSeconds }),
      issuing: { credentialStore: { useExisting: InMemoryCredentialStore }, refreshTokenStore: { useExisting: InMemoryRefreshTokenStore }, imports: [Stores], passwordHasher },
      ...(browser === null ? {} : { browser }),
      outsideSignIn: {
        providers: [provider],
        baseUrl: APP_ORIGIN,
        flowStore: { useExisting: FLOWS },
        identityStore: { useExisting: IDENTITIES },
        imports: [Stores],
        accounts: {
          findByVerifiedEmail: (email) => emails.get(email),
          canUsePassword: (accountId) => !passwordless.has(accountId),
        },
        timeoutMs: 1500,
        ...settings.outside,
      },
    }),
    controllers: [me],
    app: { logger: jsonLogger({ write: (line) => logLines.push(line) }) },
  });
  const cookies = new Map<string, string>();
  return {
    app,
    logLines,
    securityEvents: () => logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.securityEvent === true),
    clock,
    identities,
    flows,
    cookies,
    async browser(method, path, init = {}) {
      const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
      const headers: Record<string, string> = { ...init.headers };
      if (cookie !== '') headers.cookie = cookie;
      const response = await app.fetch(new Request(new URL(path, APP_ORIGIN), { method, headers, body: init.body }));
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair?.indexOf('=') ?? -1;
        if (pair === undefined || at < 0) continue;
        const name = pair.slice(0, at);
        const value = pair.slice(at + 1);
        if (value === '' || /max-age=0/i.test(line)) cookies.delete(name);
        else cookies.set(name, value);
      }
      return response;
    },
  };
}

export { FLOW_BINDING_COOKIE };
