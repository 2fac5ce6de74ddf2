// The cookie helpers `tessera-http/middleware` exported before parsing and serialising moved to
// the core (issue 47): deprecated aliases for one minor version, each the core's own function.
import * as core from '../index.js';

/**
 * @deprecated Since 0.2: import `getCookie` from `tessera-http`. Removed in 0.3.
 *
 * @example
 * const session = getCookie(ctx, 'session');
 */
export const getCookie: typeof core.getCookie = core.getCookie;

/**
 * @deprecated Since 0.2: import `getCookies` from `tessera-http`. Removed in 0.3.
 *
 * @example
 * getCookies(ctx); // { session: 'abc' }
 */
export const getCookies: typeof core.getCookies = core.getCookies;

/**
 * @deprecated Since 0.2: import `setCookie` from `tessera-http`. Removed in 0.3.
 *
 * @example
 * return setCookie(answer, 'session', id, { maxAge: 3600 });
 */
export const setCookie: typeof core.setCookie = core.setCookie;

/**
 * @deprecated Since 0.2: import `deleteCookie` from `tessera-http`. Removed in 0.3.
 *
 * @example
 * return deleteCookie(answer, 'session');
 */
export const deleteCookie: typeof core.deleteCookie = core.deleteCookie;

/**
 * @deprecated Since 0.2: import `serializeCookie` from `tessera-http`. Removed in 0.3.
 *
 * @example
 * serializeCookie('theme', 'dark', { httpOnly: false }); // 'theme=dark; Path=/; Secure; SameSite=Lax'
 */
export const serializeCookie: typeof core.serializeCookie = core.serializeCookie;

/**
 * @deprecated Since 0.2: import `CookieOptions` from `tessera-http`. Removed in 0.3.
 *
 * @example
 * const options: CookieOptions = { maxAge: 3600, sameSite: 'Strict' };
 */
export type CookieOptions = core.CookieOptions;
