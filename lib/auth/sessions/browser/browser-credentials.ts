import { BEARER_PROTOCOL_PREFIX, type RequestContext } from '../../../index.js';
import { OWN_ORIGIN_ONLY, type CompiledOriginPolicy } from '../../../internal/client-policies.js';
import { getCookie } from '../../../index.js';
import { parseJoseSegment, ownClaim } from '../../credentials/jwt/jose-json.js';
import { BrowserCookies } from './browser-cookies.js';
import { CSRF_HEADER } from './browser-cookies.js';
import type { BrowserSessionOptions } from './browser-options.js';
import { crossSiteRefused, csrfTokenRefused } from './csrf-refusal.js';
import { createCsrfToken, deriveCsrfKey, isCsrfTokenOf, type CsrfKey } from './csrf-token.js';
import { isAllowedRequestOrigin } from './request-origin.js';
import { createClientAddressReader, type ClientAddressReader } from '../../../index.js';

/** Methods that must not change anything (RFC 9110 safe methods): no CSRF token needed. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * What the guards and the browser-session routes share: the cookies, the CSRF key and the
 * allowed origins of one auth module. Not exported from the package; routes use
 * `BrowserSessions`.
 *
 * @example
 * const browser = new BrowserCredentials(options.browser, options.secret);
 * const token = browser.accessTokenOf(ctx); // the cookie, when no Authorization header was sent
 */
export class BrowserCredentials {
  readonly cookies: BrowserCookies;
  readonly #key: CsrfKey;
  /** The other origins the CSRF check accepts: the app's policy, or the deprecated `browser.allowedOrigins`. */
  readonly #otherOrigins: (origin: string, ctx: RequestContext) => boolean;
  readonly #readClientAddress: ClientAddressReader;

  constructor(options: BrowserSessionOptions, secret: string, origins: CompiledOriginPolicy = OWN_ORIGIN_ONLY) {
    this.cookies = new BrowserCookies(options);
    this.#readClientAddress = createClientAddressReader(options.clientIp);
    this.#key = deriveCsrfKey(secret);
    const listed = options.allowedOrigins;
    if (listed === undefined) {
      // The app's one policy, by name only: its '*' admits no other origin to cookie requests.
      this.#otherOrigins = (origin, ctx) => origins.names(origin, ctx);
    } else {
      for (const origin of listed) {
        if (typeof origin !== 'string' || !/^https?:\/\/[^/\s]+$/.test(origin)) throw new TypeError('browser.allowedOrigins holds origins such as "https://app.example.com" (no path, no trailing slash)');
      }
      const set: ReadonlySet<string> = new Set(listed);
      this.#otherOrigins = (origin) => set.has(origin);
    }
  }

  /**
   * The access token from its cookie, for a request that brought no credential in a header: a
   * request with `Authorization` (or a WebSocket bearer subprotocol entry) is judged by that alone.
   */
  accessTokenOf(ctx: Pick<RequestContext, 'header'>): string | undefined {
    if (ctx.header('authorization') !== null) return undefined;
    if (ctx.header('upgrade')?.toLowerCase() === 'websocket' && (ctx.header('sec-websocket-protocol') ?? '').includes(BEARER_PROTOCOL_PREFIX)) return undefined;
    const token = getCookie(ctx, this.cookies.names.access);
    return token === '' ? undefined : token;
  }

  /**
   * The client's address: `ctx.clientAddress` (the app's rule), read through the deprecated
   * `browser.clientIp` rule when it is given (the app then has none, see checkDeprecatedClientIp).
   */
  clientAddressOf(ctx: Pick<RequestContext, 'header' | 'clientAddress'>): string | undefined {
    return this.#readClientAddress({ socketAddress: ctx.clientAddress, forwardedFor: ctx.header('x-forwarded-for') });
  }

  /** The CSRF token of a session (what the page must echo in `X-CSRF-Token`). */
  csrfTokenFor(sessionId: string): string {
    return createCsrfToken(this.#key, sessionId);
  }

  /**
   * Throws the 403 problem unless the request passes the origin check (see
   * `isAllowedRequestOrigin`). Every cookie-authenticated unsafe request and every
   * cookie-authenticated WebSocket upgrade must.
   */
  checkOrigin(ctx: RequestContext): void {
    if (!isAllowedRequestOrigin(ctx, (origin) => this.#otherOrigins(origin, ctx))) throw crossSiteRefused();
  }

  /**
   * The CSRF defence of a request authenticated by the access-token cookie: safe methods pass
   * (a WebSocket upgrade, a GET, must still pass the origin check: a page of another site can
   * open a socket), unsafe ones must pass the origin check and carry the CSRF token of the
   * session the access token belongs to. Throws the 403 problem otherwise.
   */
  checkCookieRequest(ctx: RequestContext, accessToken: string): void {
    if (SAFE_METHODS.has(ctx.method)) {
      if (ctx.header('upgrade')?.toLowerCase() === 'websocket') this.checkOrigin(ctx);
      return;
    }
    this.checkOrigin(ctx);
    this.checkCsrfToken(ctx, sessionIdOfAccessToken(accessToken));
  }

  /** Throws the 403 problem unless `X-CSRF-Token` is the token of `sessionId`. */
  checkCsrfToken(ctx: Pick<RequestContext, 'header'>, sessionId: string | undefined): void {
    if (sessionId === undefined || !isCsrfTokenOf(this.#key, ctx.header(CSRF_HEADER), sessionId)) throw csrfTokenRefused();
  }
}

/**
 * The `sid` of an access token the verifier has accepted (read without verifying again: call it
 * only after verification), or undefined (an outside issuer's token has none).
 *
 * @example
 * sessionIdOfAccessToken(pair.accessToken); // '019ab3c4-...'
 */
export function sessionIdOfAccessToken(token: string): string | undefined {
  const first = token.indexOf('.');
  const second = token.indexOf('.', first + 1);
  if (first <= 0 || second <= first) return undefined;
  const payload = parseJoseSegment(token, first + 1, second);
  const sid = payload === undefined ? undefined : ownClaim(payload, 'sid');
  return typeof sid === 'string' && sid !== '' ? sid : undefined;
}
