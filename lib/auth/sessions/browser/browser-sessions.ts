import { jsonAnswer, withHeaders, type Answer, type Clock, type RequestContext } from '../../../index.js';
import { toResponse } from '../../../internal/request-path.js';
import { getCookie } from '../../../index.js';
import { readBearerToken } from '../../credentials/jwt/bearer-token.js';
import { hashRefreshToken, invalidCredentials, isWellFormedRefreshToken, secondFactorRequiredAnswer, type RefreshTokenStore, type SignInContext, type SignInStep, type TokenPair } from '../issuing/index.js';
import { CSRF_HEADER, type BrowserCookieNames } from './browser-cookies.js';
import { sessionIdOfAccessToken, type BrowserCredentials } from './browser-credentials.js';

/** What browser sessions need of the auth service (`AUTH_SERVICE`). */
interface SessionIssuer {
  signIn(identifier: string, password: string, context?: SignInContext): Promise<TokenPair>;
  /** Two-step sign-in (second factors); when present, browser sign-in uses it. */
  beginSignIn?(identifier: string, password: string, context?: SignInContext): Promise<SignInStep>;
  refresh(refreshToken: string): Promise<TokenPair>;
  signOut(refreshToken: string): Promise<void>;
  issueTokens(subject: string, context?: SignInContext): Promise<TokenPair>;
  /** Ends the session of a refresh token known by its hash (as signOut does): the session a new sign-in replaces. */
  revokeSessionOfToken(tokenHash: string): Promise<void>;
}

/**
 * What a browser sign-in or refresh answers in its JSON body: never a token, only when they
 * expire (so the page can refresh ahead of time) and the CSRF token (also in the readable
 * CSRF cookie) for the page to echo in `X-CSRF-Token`.
 *
 * @example
 * const { csrfToken } = (await (await fetch('/auth/browser/sign-in', init)).json()) as BrowserSessionBody;
 */
export interface BrowserSessionBody {
  readonly accessTokenExpiresAt: string;
  readonly refreshTokenExpiresAt: string;
  readonly csrfToken: string;
}

/**
 * Browser sessions on the app's own tokens, for the routes a browser app calls: the auth
 * module's `BROWSER_SESSIONS` when `browser` is configured. The tokens travel in cookies the
 * page's scripts never see (see `BrowserCookies` for the flags and why); refresh rotates them
 * with reuse detection and revocation exactly as for JSON clients (it is `AUTH_SERVICE.refresh`).
 *
 * CSRF defence (double-submit, bound to the session): every cookie-authenticated unsafe request
 * must pass the `Sec-Fetch-Site` / `Origin` check and carry `X-CSRF-Token` equal to the
 * session's CSRF token, HMAC-SHA256(key derived from the auth secret, session id). The page gets
 * the token in the sign-in and refresh bodies and in the readable CSRF cookie. Because the token
 * is a MAC of the session id, a token planted by a sibling subdomain or copied from another
 * session is refused, and checking it needs no store. The guards apply the same check to
 * requests they authenticate by the access-token cookie; requests authenticated by a header
 * (`Authorization`, `x-api-key`) are not affected. Refusals are 403 problems.
 *
 * @example
 * const { BROWSER_SESSIONS } = defineAuthModule(Claims);
 * post('/auth/browser/sign-in', { body: SignIn }, (ctx) => browser.signIn(ctx, ctx.body.identifier, ctx.body.password));
 * post('/auth/browser/refresh', (ctx) => browser.refresh(ctx));
 * post('/auth/browser/sign-out', (ctx) => browser.signOut(ctx));
 */
export class BrowserSessions {
  /** The cookie names (`__Host-tessera-access`, ... or `__Secure-` ones with `domain`). */
  readonly cookieNames: BrowserCookieNames;
  /** The header the page echoes the CSRF token in: `x-csrf-token`. */
  readonly csrfHeader = CSRF_HEADER;
  readonly #auth: SessionIssuer;
  readonly #refreshTokens: Pick<RefreshTokenStore, 'find'>;
  readonly #credentials: BrowserCredentials;
  readonly #clock: Clock;

  constructor(auth: SessionIssuer, refreshTokens: Pick<RefreshTokenStore, 'find'>, credentials: BrowserCredentials, clock: Clock) {
    this.#auth = auth;
    this.#refreshTokens = refreshTokens;
    this.#credentials = credentials;
    this.#clock = clock;
    this.cookieNames = credentials.cookies.names;
  }

  /**
   * Signs in and answers 200 with the session cookies and a {@link BrowserSessionBody}, ending the
   * session the browser's cookies carried, if any (its other devices' sessions stay). The origin
   * check runs first (a page of another site must not sign the visitor into an account of its
   * choosing). The request's client address (by `browser.clientIp`) and User-Agent go with the
   * session (`AuthService.listSessions`) and to sign-in throttling. For an account with a second
   * factor it answers the second step instead (401 `urn:tessera:auth:second-factor-required` with
   * the pending token, no cookie); {@link startSession} finishes it.
   *
   * @throws UnauthorizedException `Invalid credentials`, as `AuthService.signIn`.
   * @throws ForbiddenException `Cross-site request refused`.
   * @example
   * post('/auth/browser/sign-in', { body: SignIn }, (ctx) => browser.signIn(ctx, ctx.body.identifier, ctx.body.password));
   */
  async signIn(ctx: RequestContext, identifier: string, password: string): Promise<Answer> {
    this.#credentials.checkOrigin(ctx);
    const context = this.#contextOf(ctx);
    if (this.#auth.beginSignIn === undefined) return this.#answerReplacing(ctx, await this.#auth.signIn(identifier, password, context));
    const step = await this.#auth.beginSignIn(identifier, password, context);
    return step.kind === 'session' ? this.#answerReplacing(ctx, step.pair) : secondFactorRequiredAnswer(step.step);
  }

  /**
   * A new session replaces the one this browser's cookies carried (ASVS 7.2.4): that one ends, its
   * access tokens refused everywhere; the person's other devices keep theirs. Called once the
   * session started, so a mistyped password (or a second step not yet passed) signs nobody out.
   */
  async #answerReplacing(ctx: RequestContext, pair: TokenPair): Promise<Answer> {
    await this.#endReplaced([this.heldSessionOf(ctx)]);
    return this.#answer(pair);
  }

  /** Ends the sessions a new one replaces (refresh-token hashes; each once), exactly as sign-out ends one. */
  async #endReplaced(tokenHashes: readonly (string | undefined)[]): Promise<void> {
    for (const tokenHash of new Set(tokenHashes)) if (tokenHash !== undefined) await this.#auth.revokeSessionOfToken(tokenHash);
  }

  /**
   * The session this browser's cookies carry, as the SHA-256 of its refresh token (never the token
   * itself), or undefined without a well-formed refresh cookie. A sign-in that finishes on another
   * request keeps it to end that session once the new one starts: an outside sign-in reads it at
   * its start (a request of this site, which carries the SameSite=Strict cookies) because the
   * provider's redirect back is cross-site and does not (see {@link redirectWithSession}).
   *
   * @example
   * const replacing = browser.heldSessionOf(ctx); // kept with the outside sign-in's flow
   */
  heldSessionOf(ctx: Pick<RequestContext, 'header'>): string | undefined {
    const token = this.#refreshTokenOf(ctx);
    return token === undefined ? undefined : hashRefreshToken(token);
  }

  /**
   * Answers a session started another way (a sign-in's second step, a passkey) as {@link signIn}
   * does: the origin check first, then `start` with the request's sign-in context, then the
   * cookies and a {@link BrowserSessionBody}.
   *
   * @throws ForbiddenException `Cross-site request refused`; whatever `start` throws.
   * @example
   * post('/auth/browser/second-factor', (ctx) => browser.startSession(ctx, (context) => factors.completeSignIn(ctx.body.pendingToken, { totp: ctx.body.code }, context)));
   */
  async startSession(ctx: RequestContext, start: (context: SignInContext) => Promise<TokenPair>): Promise<Answer> {
    this.#credentials.checkOrigin(ctx);
    return this.#answerReplacing(ctx, await start(this.#contextOf(ctx)));
  }

  #contextOf(ctx: RequestContext): SignInContext {
    return { clientAddress: this.#credentials.clientAddressOf(ctx), userAgent: ctx.header('user-agent') ?? undefined };
  }

  /**
   * Answers a session already started for a person authenticated by other means (an outside
   * provider's sign-in, past the second-factor gate: see `outsideSignIn`) with 303 to `location`
   * (a path of this app) and the session cookies, ending the session the browser held as
   * {@link signIn} does (ASVS 5.0 7.2.4): `replacing` (what {@link heldSessionOf} answered when
   * the sign-in began) and the one of the cookies this request carries, if any. Both, because the
   * provider's redirect back is a cross-site request: with the default SameSite=Strict (and on a
   * `form_post` callback, with Lax too) the browser does not send the session cookies on it. No
   * origin check: the request is cross-site by nature; the caller has authenticated it (state,
   * browser binding, PKCE, ID token).
   *
   * @example
   * return browser.redirectWithSession(ctx, pair, '/', flow.replacing);
   */
  async redirectWithSession(ctx: RequestContext, pair: TokenPair, location: string, replacing: string | undefined): Promise<Answer> {
    const sessionId = sessionIdOfAccessToken(pair.accessToken);
    if (sessionId === undefined) throw new Error('browser sessions: the issued access token has no sid');
    await this.#endReplaced([replacing, this.heldSessionOf(ctx)]);
    const csrfToken = this.#credentials.csrfTokenFor(sessionId);
    return this.#withCookies(toResponse({ status: 303, headers: { location }, body: null }), this.#credentials.cookies.issue(pair, csrfToken, this.#clock.now()));
  }

  /**
   * The client address a session keeps (by `browser.clientIp`, else the app's rule).
   *
   * @example
   * browser.clientAddressOf(ctx);
   */
  clientAddressOf(ctx: RequestContext): string | undefined {
    return this.#credentials.clientAddressOf(ctx);
  }

  /**
   * Rotates the session read from the refresh-token cookie and answers 200 with new cookies and a
   * {@link BrowserSessionBody}. Needs the origin check and the session's `X-CSRF-Token`.
   *
   * @throws UnauthorizedException `Invalid credentials` without a usable refresh cookie (as
   * `AuthService.refresh`: a reused token revokes its session).
   * @throws ForbiddenException on a failed origin or CSRF check.
   * @example
   * post('/auth/browser/refresh', (ctx) => browser.refresh(ctx));
   */
  async refresh(ctx: RequestContext): Promise<Answer> {
    this.#credentials.checkOrigin(ctx);
    const refreshToken = this.#refreshTokenOf(ctx);
    if (refreshToken === undefined) throw invalidCredentials();
    const record = await this.#refreshTokens.find(hashRefreshToken(refreshToken));
    if (record == null) throw invalidCredentials();
    this.#credentials.checkCsrfToken(ctx, typeof record.familyId === 'string' ? record.familyId : undefined);
    return this.#answer(await this.#auth.refresh(refreshToken));
  }

  /**
   * Ends the session of the refresh-token cookie (its access tokens are refused on every
   * instance, its sockets close) and answers 204 deleting the cookies. Without a session cookie it
   * only deletes them. Needs the origin check, and the session's `X-CSRF-Token` when the cookie
   * names a stored session.
   *
   * @throws ForbiddenException on a failed origin or CSRF check.
   * @example
   * post('/auth/browser/sign-out', (ctx) => browser.signOut(ctx));
   */
  async signOut(ctx: RequestContext): Promise<Answer> {
    this.#credentials.checkOrigin(ctx);
    const refreshToken = this.#refreshTokenOf(ctx);
    if (refreshToken !== undefined) {
      const record = await this.#refreshTokens.find(hashRefreshToken(refreshToken));
      if (record != null) {
        this.#credentials.checkCsrfToken(ctx, typeof record.familyId === 'string' ? record.familyId : undefined);
        await this.#auth.signOut(refreshToken);
      }
    }
    return this.#withCookies(jsonAnswer(204, undefined), this.#credentials.cookies.clear());
  }

  /**
   * The session id of the request's own access token (from `Authorization` or the cookie), for
   * "this device" in a session list and `revokeOtherSessions`. Call it behind `JwtAuthGuard` or
   * `AuthGuard`, which verified the token; undefined for an API key or an outside issuer's token.
   *
   * @example
   * await auth.revokeOtherSessions(getCurrentUser(ctx)!.sub, browser.sessionIdOf(ctx)!);
   */
  sessionIdOf(ctx: Pick<RequestContext, 'header'>): string | undefined {
    const token = readBearerToken(ctx.header('authorization')) ?? this.#credentials.accessTokenOf(ctx);
    return token === undefined ? undefined : sessionIdOfAccessToken(token);
  }

  /**
   * The CSRF token of a session, for a page rendered by the server (put it in a meta tag).
   *
   * @example
   * const csrf = browser.csrfTokenFor(browser.sessionIdOf(ctx)!);
   */
  csrfTokenFor(sessionId: string): string {
    return this.#credentials.csrfTokenFor(sessionId);
  }

  #refreshTokenOf(ctx: Pick<RequestContext, 'header'>): string | undefined {
    const token = getCookie(ctx, this.cookieNames.refresh);
    return token !== undefined && isWellFormedRefreshToken(token) ? token : undefined;
  }

  #answer(pair: TokenPair): Answer {
    const sessionId = sessionIdOfAccessToken(pair.accessToken);
    // Our own token always has one; without it no CSRF token could be bound, so fail closed.
    if (sessionId === undefined) throw new Error('browser sessions: the issued access token has no sid');
    const csrfToken = this.#credentials.csrfTokenFor(sessionId);
    const body: BrowserSessionBody = { accessTokenExpiresAt: pair.accessTokenExpiresAt.toISOString(), refreshTokenExpiresAt: pair.refreshTokenExpiresAt.toISOString(), csrfToken };
    return this.#withCookies(jsonAnswer(200, body), this.#credentials.cookies.issue(pair, csrfToken, this.#clock.now()));
  }

  #withCookies(answer: Answer, cookies: readonly string[]): Answer {
    let out = answer;
    // Cache-Control: a response that sets session cookies must never be stored by a cache.
    out = withHeaders(out, { 'cache-control': 'no-store' });
    for (const cookie of cookies) out = withHeaders(out, { 'set-cookie': cookie });
    return out;
  }
}
