import { BadRequestException, ConflictException, ForbiddenException, HttpException, jsonAnswer, NotFoundException, ServiceUnavailableException, UnauthorizedException, getCookie, serializeCookie, withHeaders, type Answer, type Clock, type RequestContext } from '../../index.js';
import { toResponse } from '../../internal/request-path.js';
import { generateOpaqueToken, hashOpaqueToken, isWellFormedOpaqueToken } from '../sessions/issuing/opaque-token.js';
import { secondFactorRequiredAnswer, type SignInContext, type SignInStep, type TokenPair } from '../sessions/issuing/index.js';
import { constantTimeEqual } from '../shared/constant-time-equal.js';
import { escapeHtml } from '../accounts/mail/escape-html.js';
import type { IdentityStore, LinkedIdentity } from './identity-store.js';
import type { OutsideAccounts } from './outside-accounts.js';
import { OutsideProviderClient, OutsideProviderUnavailable, OutsideSignInRefused } from './outside-provider-client.js';
import type { OutsideProfile } from './outside-provider-options.js';
import type { OutsideSignInOptions } from './outside-sign-in-options.js';
import type { SignInFlow, SignInFlowStore } from './sign-in-flow-store.js';
import type { OutsideSignInFailure, SecurityEventSink } from '../events/security-event.js';

/**
 * The cookie that ties a flow to the browser that started it. SameSite=None so that it comes
 * back on a `form_post` callback (a cross-site POST), `__Host-` so no sibling host can plant one,
 * HttpOnly. Without it, an attacker could send a victim the callback URL of a flow the attacker
 * started and completed with their own provider account, signing the victim in as the attacker
 * (login CSRF): state alone proves nothing about who is at the callback.
 */
export const FLOW_BINDING_COOKIE = '__Host-tessera-oidc';

/** What ends an outside sign-in in a session of the app's own. */
export interface OutsideSessionIssuer {
  /** The one second-factor gate every sign-in path passes: a session, or the second step. */
  beginSession(subject: string, context?: SignInContext): Promise<SignInStep>;
}

/** Answers the session as cookies and a redirect (with `browser`). */
export interface OutsideBrowserSessions {
  redirectWithSession(ctx: RequestContext, pair: TokenPair, location: string, replacing: string | undefined): Promise<Answer>;
  /** The session the browser holds (its refresh token's hash), read at the start: see `SignInFlow.replacing`. */
  heldSessionOf(ctx: RequestContext): string | undefined;
  clientAddressOf(ctx: RequestContext): string | undefined;
}

/** The parts the service is built from (see `AuthModule.forRoot({ outsideSignIn })`). */
export interface OutsideSignInParts {
  readonly options: OutsideSignInOptions;
  readonly flows: SignInFlowStore;
  readonly identities: IdentityStore;
  /** The linking rules' view of the app's accounts (the option, or the module's account store). */
  readonly accounts: OutsideAccounts;
  readonly sessions: OutsideSessionIssuer;
  readonly browser: OutsideBrowserSessions | undefined;
  /** Whether an account may sign in now (not disabled, not gone): the credential store's loadClaims. */
  readonly canSignIn: (accountId: string) => Promise<boolean>;
  /**
   * The module's recent-authentication rule (`recentAuthSeconds`, as `RecentAuthGuard`): returns
   * when the request's person authenticated recently enough, throws the refusal otherwise.
   */
  readonly recentAuthentication: (ctx: RequestContext) => void;
  /** Where sign-ins, refusals, links and unlinks are recorded (the module's `SECURITY_EVENTS`). */
  readonly events: SecurityEventSink;
  readonly clock: Clock;
  readonly clockToleranceSeconds: number;
}

/** The one answer for a callback whose flow is unknown, used, expired or another browser's. */
function flowRefused(): BadRequestException {
  return new BadRequestException('This sign-in has expired or was already used; start again');
}

/** The one answer for a provider answer that fails a check; which check is only logged. */
function signInRefused(): UnauthorizedException {
  return new UnauthorizedException('Sign-in with the provider failed');
}

/**
 * Outside sign-in: the redirect to a provider, the callback that ends in a session, and linking
 * and unlinking identities while signed in. Every protocol step is oauth4webapi's (see
 * OutsideProviderClient); this class keeps the flow (server-side, single-use, bound to the
 * browser) and applies the linking rules:
 *
 * 1. an identity already linked signs in to its account;
 * 2. a signed-in person who started the flow with `link` gets the identity linked to their
 *    account (refused when it is another account's);
 * 3. a provider with `linkVerifiedEmail` links a verified e-mail to the local account with that
 *    verified address; an unverified e-mail never links;
 * 4. else `accounts.create` may make an account; else the sign-in is refused (403).
 *
 * @example
 * const answer = await outsideSignIn.start(ctx, 'oidc');      // 303 to the provider
 * const done = await outsideSignIn.callback(ctx, 'oidc', parameters); // session cookies, a page on to returnTo
 */
export class OutsideSignIn {
  readonly #parts: OutsideSignInParts;
  readonly #providers: ReadonlyMap<string, OutsideProviderClient>;
  readonly #ttlMs: number;
  readonly #returnTo: string;
  readonly #baseUrl: string;

  constructor(parts: OutsideSignInParts) {
    this.#parts = parts;
    const { options } = parts;
    const settings = { clock: parts.clock, timeoutMs: options.timeoutMs ?? 5000, clockToleranceSeconds: parts.clockToleranceSeconds };
    this.#providers = new Map(options.providers.map((provider) => [provider.name, new OutsideProviderClient(provider, settings)]));
    this.#ttlMs = (options.flowTtlSeconds ?? 600) * 1000;
    this.#returnTo = options.defaultReturnTo ?? '/';
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /** The configured providers' names. */
  get providerNames(): readonly string[] {
    return [...this.#providers.keys()];
  }

  /**
   * Starts a sign-in: stores the flow and answers 303 to the provider's authorization endpoint.
   * `returnTo` (a path of this app) is where the browser lands afterwards.
   *
   * @throws NotFoundException for an unknown provider; ServiceUnavailableException when the
   * provider's discovery does not answer in time.
   */
  async start(ctx: RequestContext, providerName: string, returnTo?: string, linkAccountId?: string): Promise<Answer> {
    const provider = this.#provider(providerName);
    const existing = getCookie(ctx, FLOW_BINDING_COOKIE);
    // One binding per browser, so flows started in two tabs both finish.
    const binding = existing !== undefined && isWellFormedOpaqueToken(existing) ? existing : generateOpaqueToken();
    const state = generateOpaqueToken();
    const codeVerifier = generateOpaqueToken();
    const nonce = provider.isOidc ? generateOpaqueToken() : undefined;
    const request = { state, codeVerifier, nonce, redirectUri: this.#redirectUri(provider.name) };
    const url = await this.#guard(provider.name, () => provider.authorizationUrl(request), ctx);
    const flow: SignInFlow = {
      provider: provider.name,
      codeVerifier,
      nonce,
      bindingHash: hashOpaqueToken(binding),
      returnTo: safeReturnTo(returnTo) ?? this.#returnTo,
      linkAccountId,
      // Read here, on a request of this site: the provider's redirect back will not carry the session cookies.
      replacing: linkAccountId === undefined ? this.#parts.browser?.heldSessionOf(ctx) : undefined,
      expiresAt: new Date(this.#parts.clock.now() + this.#ttlMs),
    };
    await this.#parts.flows.save(hashOpaqueToken(state), flow);
    const cookie = serializeCookie(FLOW_BINDING_COOKIE, binding, { httpOnly: true, secure: true, sameSite: 'None', path: '/', maxAge: Math.ceil(this.#ttlMs / 1000) });
    return redirect(url.href, cookie);
  }

  /**
   * Completes a sign-in from the provider's callback (query or `form_post` body): takes the flow
   * (single use), checks the browser binding, lets oauth4webapi check the answer, applies the
   * linking rules and answers the session (cookies and a page that moves on to `returnTo`, or a
   * JSON token pair).
   *
   * @throws BadRequestException for an unknown, used, expired or foreign flow; UnauthorizedException
   * when the provider's answer fails a check; ForbiddenException when no rule gives an account;
   * ConflictException when linking an identity that is another account's;
   * ServiceUnavailableException when the provider does not answer in time.
   */
  async callback(ctx: RequestContext, providerName: string, parameters: URLSearchParams): Promise<Answer> {
    const provider = this.#provider(providerName);
    const refused = (reason: OutsideSignInFailure) => this.#parts.events.record({ type: 'outside-sign-in.failed', provider: provider.name, reason, clientAddress: this.#clientAddress(ctx) });
    const state = parameters.get('state');
    const flow = state !== null && isWellFormedOpaqueToken(state) ? await this.#parts.flows.take(hashOpaqueToken(state)) : undefined;
    const binding = getCookie(ctx, FLOW_BINDING_COOKIE);
    if (state === null || flow === undefined || flow.provider !== provider.name || flow.expiresAt.getTime() <= this.#parts.clock.now() || binding === undefined || !isWellFormedOpaqueToken(binding) || !sameText(hashOpaqueToken(binding), flow.bindingHash)) {
      refused('flow-refused');
      throw flowRefused();
    }
    const request = { state, codeVerifier: flow.codeVerifier, nonce: flow.nonce, redirectUri: this.#redirectUri(provider.name) };
    let profile: OutsideProfile;
    try {
      profile = await this.#guard(provider.name, () => provider.complete(parameters, request), ctx);
    } catch (error) {
      if (error instanceof HttpException && (error.status === 401 || error.status === 503)) refused(error.status === 401 ? 'provider-answer' : 'provider-unavailable');
      throw error;
    }
    const identity = { issuer: provider.issuer, subject: profile.subject };
    if (flow.linkAccountId !== undefined) {
      await this.#link(flow.linkAccountId, provider.name, identity, profile);
      return this.#continuePage([], flow.returnTo);
    }
    const accountId = await this.#accountFor(provider, identity, profile).catch((error: unknown) => {
      if (error instanceof ForbiddenException) refused('no-account');
      throw error;
    });
    if (!(await this.#parts.canSignIn(accountId))) {
      refused('account-disabled');
      throw new ForbiddenException('This account cannot sign in');
    }
    this.#parts.events.record({ type: 'outside-sign-in.succeeded', provider: provider.name, subject: accountId, clientAddress: this.#clientAddress(ctx) });
    return this.#session(ctx, accountId, flow.returnTo, flow.replacing);
  }

  /**
   * Starts linking a provider to the signed-in account (call behind `AccountGuard`): the recent
   * authentication check, then a flow that ends in the link instead of a sign-in.
   */
  async startLink(ctx: RequestContext, providerName: string, accountId: string, returnTo?: string): Promise<Answer> {
    this.#provider(providerName);
    this.#parts.recentAuthentication(ctx);
    return this.start(ctx, providerName, returnTo, accountId);
  }

  /** The identities linked to the account. */
  async identitiesOf(accountId: string): Promise<readonly LinkedIdentity[]> {
    return this.#parts.identities.listByAccount(accountId);
  }

  /**
   * Unlinks the account's identity of a provider (call behind `AccountGuard`), after the recent
   * authentication check. The last way to sign in is never removed: refused (409) when the
   * account has no other identity and cannot use a password.
   *
   * @throws NotFoundException when the account has no identity of that provider.
   */
  async unlink(ctx: RequestContext, accountId: string, providerName: string): Promise<void> {
    this.#provider(providerName);
    this.#parts.recentAuthentication(ctx);
    const identities = await this.#parts.identities.listByAccount(accountId);
    const target = identities.find((identity) => identity.provider === providerName);
    if (target === undefined) throw new NotFoundException('No such linked identity');
    if (identities.length === 1 && !(await this.#parts.accounts.canUsePassword(accountId))) {
      throw new ConflictException('This is the last way to sign in to the account; add another before removing it');
    }
    await this.#parts.identities.unlink(accountId, target.issuer, target.subject);
    this.#parts.events.record({ type: 'identity.unlinked', subject: accountId, provider: providerName });
  }

  /** The linking rules, in order; see the class comment. */
  async #accountFor(provider: OutsideProviderClient, identity: { issuer: string; subject: string }, profile: OutsideProfile): Promise<string> {
    const { identities } = this.#parts;
    const linked = await identities.find(identity.issuer, identity.subject);
    if (linked !== undefined) return linked.accountId;
    const accounts: OutsideAccounts = this.#parts.accounts;
    if (provider.linkVerifiedEmail && profile.emailVerified && profile.email !== undefined && accounts.findByVerifiedEmail !== undefined) {
      const accountId = await accounts.findByVerifiedEmail(profile.email);
      if (accountId !== undefined) return this.#linkNew(accountId, provider.name, identity, profile);
    }
    const created = accounts.create === undefined ? undefined : await accounts.create(profile, provider.name);
    if (created !== undefined) return this.#linkNew(created, provider.name, identity, profile);
    throw new ForbiddenException('No account is linked to this sign-in');
  }

  /** Links a first-seen identity; when a racing callback linked it first, its account wins. */
  async #linkNew(accountId: string, provider: string, identity: { issuer: string; subject: string }, profile: OutsideProfile): Promise<string> {
    if (await this.#parts.identities.link({ ...identity, accountId, provider, email: profile.email, linkedAt: new Date(this.#parts.clock.now()) })) {
      this.#parts.events.record({ type: 'identity.linked', subject: accountId, provider });
      return accountId;
    }
    const winner = await this.#parts.identities.find(identity.issuer, identity.subject);
    if (winner === undefined) throw new Error('outside sign-in: the identity store refused a link and has no entry for it');
    return winner.accountId;
  }

  async #link(accountId: string, provider: string, identity: { issuer: string; subject: string }, profile: OutsideProfile): Promise<void> {
    const existing = await this.#parts.identities.find(identity.issuer, identity.subject);
    if (existing !== undefined) {
      if (existing.accountId === accountId) return;
      throw new ConflictException('This identity is linked to another account');
    }
    const mine = await this.#parts.identities.listByAccount(accountId);
    if (mine.some((entry) => entry.provider === provider)) throw new ConflictException('The account is already linked to an identity of this provider');
    if (!(await this.#parts.identities.link({ ...identity, accountId, provider, email: profile.email, linkedAt: new Date(this.#parts.clock.now()) }))) {
      throw new ConflictException('This identity is linked to another account');
    }
    this.#parts.events.record({ type: 'identity.linked', subject: accountId, provider });
  }

  async #session(ctx: RequestContext, accountId: string, returnTo: string, replacing: string | undefined): Promise<Answer> {
    const browser = this.#parts.browser;
    const context: SignInContext = { clientAddress: this.#clientAddress(ctx), userAgent: ctx.header('user-agent') ?? undefined };
    // A person with a second factor gets the second step here as on every other sign-in path.
    const step = await this.#parts.sessions.beginSession(accountId, context);
    if (step.kind !== 'session') return toResponse(withHeaders(secondFactorRequiredAnswer(step.step), { 'set-cookie': this.#clearBinding() }));
    const pair = step.pair;
    if (browser !== undefined) {
      // The session the browser held ends (ASVS 7.2.4), as on a password sign-in.
      const started = toResponse(await browser.redirectWithSession(ctx, pair, returnTo, replacing));
      return this.#continuePage(started.headers.getSetCookie(), returnTo);
    }
    const body = {
      accessToken: pair.accessToken,
      refreshToken: pair.refreshToken,
      accessTokenExpiresAt: pair.accessTokenExpiresAt.toISOString(),
      refreshTokenExpiresAt: pair.refreshTokenExpiresAt.toISOString(),
    };
    return toResponse(withHeaders(withHeaders(jsonAnswer(200, body), { 'cache-control': 'no-store' }), { 'set-cookie': this.#clearBinding() }));
  }

  /**
   * The answer that sets the session cookies: a page that moves on to `returnTo` by itself, not a
   * 303. The callback is a navigation the provider started (cross-site), and a redirect keeps it
   * so: the browser would not send the SameSite=Strict session cookies on the first page after
   * sign-in. The page's refresh is a navigation of this site, which sends them.
   */
  #continuePage(cookies: readonly string[], returnTo: string): Response {
    const headers = new Headers({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
    for (const cookie of cookies) headers.append('set-cookie', cookie);
    headers.append('set-cookie', this.#clearBinding());
    const target = escapeHtml(returnTo);
    const body = `<!DOCTYPE html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${target}"><title>Signed in</title></head><body><p><a href="${target}">Continue</a></p></body></html>`;
    return new Response(body, { status: 200, headers });
  }

  #clearBinding(): string {
    return serializeCookie(FLOW_BINDING_COOKIE, '', { httpOnly: true, secure: true, sameSite: 'None', path: '/', maxAge: 0, expires: new Date(0) });
  }

  #provider(name: string): OutsideProviderClient {
    const provider = this.#providers.get(name);
    if (provider === undefined) throw new NotFoundException('No such sign-in provider');
    return provider;
  }

  #clientAddress(ctx: RequestContext): string | undefined {
    return this.#parts.browser?.clientAddressOf(ctx) ?? ctx.clientAddress;
  }

  #redirectUri(provider: string): string {
    return `${this.#baseUrl}/auth/oidc/${provider}/callback`;
  }

  /** Maps the client's failures to problems: the reason goes to the log, never to the answer. */
  async #guard<T>(provider: string, step: () => Promise<T>, ctx?: RequestContext): Promise<T> {
    try {
      return await step();
    } catch (error) {
      if (error instanceof OutsideProviderUnavailable) {
        ctx?.log.warn({ provider, reason: error.message }, 'outside sign-in: provider unavailable');
        throw new ServiceUnavailableException('The sign-in provider did not answer; try again later', undefined, { 'retry-after': '30' });
      }
      if (error instanceof OutsideSignInRefused) {
        ctx?.log.warn({ provider, reason: error.message }, 'outside sign-in refused');
        throw signInRefused();
      }
      throw error;
    }
  }
}

/**
 * A 303 as a Response (a handler's PlainAnswer would be sent as JSON data), never cached, with
 * one cookie.
 */
function redirect(location: string, cookie: string): Response {
  const headers = new Headers({ location, 'cache-control': 'no-store' });
  headers.append('set-cookie', cookie);
  return new Response(null, { status: 303, headers });
}

/** A path of this app (`/x`, not `//host` or `/\host`, which browsers read as another host), or undefined. */
function safeReturnTo(value: string | undefined): string | undefined {
  if (value === undefined || value.length > 2048) return undefined;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined;
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return undefined;
  return value;
}

function sameText(a: string, b: string): boolean {
  const encoder = new TextEncoder();
  return constantTimeEqual(encoder.encode(a), encoder.encode(b));
}
