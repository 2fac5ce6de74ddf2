/**
 * An app with browser sessions for the browser tests: in-memory stores, a manual clock, the
 * browser routes and a few guarded routes. Not exported from the package.
 */
import { z } from 'zod';
import { createManualClock, defineController, del, get, post, ws as wsHelper, type App, type AppOptions, type ManualClock } from '../../../index.js';
import { send } from '../../../../test/http-helpers.js';
import { defineAuthModule, InMemoryCredentialStore, InMemoryRefreshTokenStore, type AuthService } from '../../index.js';
import type { BrowserSessionOptions } from './browser-options.js';
import type { BrowserSessions } from './browser-sessions.js';
import { authTestApp, plainPasswordHasher as passwordHasher, TestClaims as Claims } from '../../core/auth-test-app.test-helper.js';

export const NOW = Date.parse('2026-11-25T12:00:00.000Z');
export const ALICE = { identifier: 'alice@acme.test', subject: 'u_alice', password: 'alice-pw' };
export const BOB = { identifier: 'bob@acme.test', subject: 'u_bob', password: 'bob-pw' };

/** What a test holds of an app with browser sessions. */
export interface BrowserTestApp {
  readonly app: App;
  readonly clock: ManualClock;
  readonly refreshTokens: InMemoryRefreshTokenStore;
  readonly auth: AuthService;
  readonly browser: BrowserSessions;
}

/**
 * The app: `POST /auth/browser/{sign-in,refresh,sign-out}`, `GET /me` and `POST /notes` behind
 * `JwtAuthGuard`, `GET /sessions` and `DELETE /sessions/:id` behind `AuthGuard`.
 *
 * @example
 * const { app } = await browserTestApp({ domain: 'example.com' });
 * const other = await browserTestApp({}, { pubsub: bus }, { clock, refreshTokens }); // a second instance
 */
/** `null`: no browser sessions. */
export async function browserTestApp(
  browserOptions: BrowserSessionOptions | null = {},
  appOptions: AppOptions = {},
  shared?: { readonly clock: ManualClock; readonly refreshTokens: InMemoryRefreshTokenStore },
  issuing: { readonly sessionMaxAge?: number } = {},
): Promise<BrowserTestApp> {
  const clock = shared?.clock ?? createManualClock(NOW);
  const definitions = defineAuthModule(Claims);
  const accounts = new InMemoryCredentialStore<z.output<typeof Claims>>(
    [ALICE, BOB].map((a) => ({ identifier: a.identifier, subject: a.subject, passwordHash: `plain:${a.password}`, claims: { sub: a.subject, roles: ['member'] } })),
  );
  // Shared by instances of one test, as instances share a database.
  const refreshTokens = shared?.refreshTokens ?? new InMemoryRefreshTokenStore(clock);
  const SignIn = z.object({ identifier: z.string(), password: z.string() });
  const inject = browserOptions === null ? [definitions.AUTH_SERVICE] : [definitions.AUTH_SERVICE, definitions.BROWSER_SESSIONS];
  let held: { auth: AuthService; browser: BrowserSessions | undefined } | undefined;
  const controller = defineController({
    name: 'BrowserTest',
    inject: inject as [typeof definitions.AUTH_SERVICE],
    // Without browser sessions the controller gets no BrowserSessions: the helpers come second.
    routes: (...deps: unknown[]) => {
      const auth = deps[0] as AuthService;
      const browser = (browserOptions === null ? undefined : deps[1]) as BrowserSessions;
      const { ws } = deps.at(-1) as { ws: typeof wsHelper };
      held = { auth, browser };
      const user = (ctx: Parameters<typeof definitions.getCurrentUser>[0]) => definitions.getCurrentUser(ctx)?.sub as string;
      return {
        signIn: post('/auth/browser/sign-in', { body: SignIn }, (ctx) => browser.signIn(ctx, ctx.body.identifier, ctx.body.password)),
        refresh: post('/auth/browser/refresh', (ctx) => browser.refresh(ctx)),
        signOut: post('/auth/browser/sign-out', (ctx) => browser.signOut(ctx)),
        jsonSignIn: post('/auth/sign-in', { body: SignIn }, (ctx) => auth.signIn(ctx.body.identifier, ctx.body.password, { userAgent: ctx.header('user-agent') ?? undefined })),
        me: get('/me', { guards: [definitions.JwtAuthGuard] }, (ctx) => ({ sub: user(ctx) })),
        note: post('/notes', { guards: [definitions.JwtAuthGuard] }, (ctx) => ({ by: user(ctx) })),
        sessions: get('/sessions', { guards: [definitions.AuthGuard] }, (ctx) => auth.listSessions(user(ctx))),
        revokeSession: del('/sessions/:id', { guards: [definitions.AuthGuard] }, async (ctx) => ({ ended: await auth.revokeSession(user(ctx), ctx.params.id) })),
        live: ws('/live', { guards: [definitions.JwtAuthGuard] }, { open: (conn) => void conn.send('hello') }),
      };
    },
  });
  const app = await authTestApp({
    auth: definitions,
    stores: [{ provide: InMemoryCredentialStore, useValue: accounts }, { provide: InMemoryRefreshTokenStore, useValue: refreshTokens }],
    forRoot: (Stores) => ({
      clock,
      issuing: { credentialStore: { useExisting: InMemoryCredentialStore }, refreshTokenStore: { useExisting: InMemoryRefreshTokenStore }, imports: [Stores], passwordHasher, ...issuing },
      ...(browserOptions === null ? {} : { browser: browserOptions }),
    }),
    controllers: [controller],
    app: appOptions,
  });
  if (held === undefined) throw new Error('the controller was not built');
  return { app, clock, refreshTokens, auth: held.auth, browser: held.browser as BrowserSessions };
}

/** The cookies a response sets, by name: the value and the attributes as sent. */
export function setCookies(headers: Headers): Map<string, { value: string; header: string }> {
  const out = new Map<string, { value: string; header: string }>();
  for (const header of headers.getSetCookie()) {
    const eq = header.indexOf('=');
    const semi = header.indexOf(';');
    out.set(header.slice(0, eq), { value: header.slice(eq + 1, semi === -1 ? undefined : semi), header });
  }
  return out;
}

/** A browser's view of one session: its cookies and CSRF token. */
export interface BrowserJar {
  cookie: string;
  csrf: string;
  access: string;
  refresh: string;
}

/** Same-origin fetch metadata, as a browser sends for the app's own page. */
export const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin', origin: 'https://localhost' } as const;

/**
 * Signs in through the browser route and answers the cookies as a browser would send them back.
 *
 * @example
 * const jar = await browserSignIn(app);
 * await send(app, 'POST', '/notes', { headers: { cookie: jar.cookie, 'x-csrf-token': jar.csrf, ...SAME_ORIGIN } });
 */
export async function browserSignIn(app: App, account = ALICE, headers: Record<string, string> = {}): Promise<BrowserJar> {
  const res = await send(app, 'POST', '/auth/browser/sign-in', { json: { identifier: account.identifier, password: account.password }, headers: { ...SAME_ORIGIN, ...headers } });
  if (res.status !== 200) throw new Error(`browser sign-in answered ${res.status}: ${res.text}`);
  return jarOf(res.headers);
}

/** The jar a sign-in or refresh response sets. */
export function jarOf(headers: Headers): BrowserJar {
  const cookies = setCookies(headers);
  const value = (name: string) => {
    const cookie = cookies.get(name);
    if (cookie === undefined) throw new Error(`no ${name} cookie was set`);
    return cookie.value;
  };
  const [access, refresh, csrf] = [value('__Host-tessera-access'), value('__Host-tessera-refresh'), value('__Host-tessera-csrf')];
  return { access, refresh, csrf, cookie: `__Host-tessera-access=${access}; __Host-tessera-refresh=${refresh}; __Host-tessera-csrf=${csrf}` };
}
