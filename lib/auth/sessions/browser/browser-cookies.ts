import { serializeCookie, type CookieOptions } from '../../../index.js';
import type { BrowserSessionOptions } from './browser-options.js';
import type { TokenPair } from '../issuing/token-pair.js';

/**
 * The names of the three browser-session cookies.
 *
 * @example
 * const names: BrowserCookieNames = { access: '__Host-tessera-access', refresh: '__Host-tessera-refresh', csrf: '__Host-tessera-csrf' };
 */
export interface BrowserCookieNames {
  /** The access token: HttpOnly, lives as long as the token. */
  readonly access: string;
  /** The refresh token: HttpOnly, lives as long as the token. */
  readonly refresh: string;
  /** The session's CSRF token: readable by the page's scripts (that is its purpose), never a credential by itself. */
  readonly csrf: string;
}

/** The request header a page echoes the CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';

/**
 * The session cookies' names and flags, decided once from the options. Every cookie is `Secure`
 * with `Path=/`. Without `domain` they are `__Host-` cookies (no `Domain`): the browser refuses
 * one set by any other host, so a sibling subdomain cannot plant or overwrite them. With
 * `domain` they are `__Secure-` cookies with that `Domain`.
 *
 * Why `Path=/` and not a path scoped to the refresh route: `__Host-` requires `Path=/`
 * (RFC 6265bis, "The __Host- Prefix"), and path scoping is no isolation anyway (RFC 6265bis,
 * "Weak Confidentiality": a page of the same origin can read a cookie of any path through a
 * frame). The refresh token is HttpOnly; what guards it is HttpOnly, Secure, SameSite and the
 * integrity only `__Host-` gives, not which requests carry it.
 *
 * @example
 * const cookies = new BrowserCookies({ sameSite: 'Strict' });
 * cookies.names.refresh; // '__Host-tessera-refresh'
 */
export class BrowserCookies {
  readonly names: BrowserCookieNames;
  readonly #base: CookieOptions;

  constructor(options: BrowserSessionOptions = {}) {
    const domain = options.domain;
    if (domain !== undefined && (typeof domain !== 'string' || !/^[A-Za-z0-9.-]+$/.test(domain) || domain.startsWith('.') || !domain.includes('.'))) {
      throw new TypeError('browser.domain must be a parent domain such as "example.com" (no scheme, no port, no leading dot)');
    }
    const sameSite = options.sameSite ?? 'Strict';
    if (sameSite !== 'Strict' && sameSite !== 'Lax') throw new TypeError("browser.sameSite must be 'Strict' or 'Lax'");
    const prefix = domain === undefined ? '__Host-' : '__Secure-';
    this.names = Object.freeze({ access: `${prefix}tessera-access`, refresh: `${prefix}tessera-refresh`, csrf: `${prefix}tessera-csrf` });
    this.#base = { secure: true, sameSite, path: '/', ...(domain === undefined ? {} : { domain }) };
  }

  /**
   * The `Set-Cookie` values that hand a session to the browser: access and refresh tokens
   * (HttpOnly) and the CSRF token (readable), each expiring with what it carries.
   *
   * @example
   * cookies.issue({ accessToken, accessTokenExpiresAt, refreshToken, refreshTokenExpiresAt }, csrfToken, clock.now());
   */
  issue(tokens: TokenPair, csrfToken: string, nowMs: number): string[] {
    const secondsUntil = (at: Date) => Math.max(0, Math.floor((at.getTime() - nowMs) / 1000));
    const refreshMaxAge = secondsUntil(tokens.refreshTokenExpiresAt);
    return [
      serializeCookie(this.names.access, tokens.accessToken, { ...this.#base, httpOnly: true, maxAge: secondsUntil(tokens.accessTokenExpiresAt) }),
      serializeCookie(this.names.refresh, tokens.refreshToken, { ...this.#base, httpOnly: true, maxAge: refreshMaxAge }),
      serializeCookie(this.names.csrf, csrfToken, { ...this.#base, httpOnly: false, maxAge: refreshMaxAge }),
    ];
  }

  /**
   * The `Set-Cookie` values that delete the three cookies (sign-out, or a session that ended).
   *
   * @example
   * cookies.clear(); // three `...=; Max-Age=0; ...` values
   */
  clear(): string[] {
    return [this.names.access, this.names.refresh, this.names.csrf].map((name) =>
      serializeCookie(name, '', { ...this.#base, httpOnly: name !== this.names.csrf, maxAge: 0, expires: new Date(0) }),
    );
  }
}
