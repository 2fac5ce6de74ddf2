// Cookie parsing and serialising, once, for the app (`tessera-http`), the middleware and auth's
// browser sessions. Signed cookies, which need an HMAC, are `tessera-http/middleware`'s.
import { TesseraError } from '../common/tessera-error.js';
import type { Answer } from './answer.js';
import { withHeaders } from './with-headers.js';

/**
 * What the cookie readers need of a request: its headers (a `RequestContext` is one).
 *
 * @example
 * const cookies: HeaderSource = { header: (name) => request.headers.get(name) };
 */
export interface HeaderSource {
  header(name: string): string | null;
}

/**
 * Attributes of a cookie set with {@link setCookie}. The defaults are the safe ones: HttpOnly,
 * Secure, SameSite=Lax, Path=/.
 *
 * @example
 * setCookie(answer, 'session', id, { maxAge: 3600, sameSite: 'Strict' });
 */
export interface CookieOptions {
  readonly httpOnly?: boolean;
  readonly secure?: boolean;
  readonly sameSite?: 'Strict' | 'Lax' | 'None';
  readonly path?: string;
  readonly domain?: string;
  /** Seconds; 0 deletes the cookie. */
  readonly maxAge?: number;
  readonly expires?: Date;
  readonly partitioned?: boolean;
}

/** RFC 6265 cookie-name (a token) and cookie-value characters; anything else is refused, never encoded silently. */
const NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const VALUE = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/;
const ATTRIBUTE = /^[^;\x00-\x1F\x7F]*$/;

/**
 * The request's cookies by name (the first of a repeated name wins, as browsers send the most
 * specific first).
 *
 * @example
 * getCookies(ctx); // { session: 'abc', theme: 'dark' }
 */
export function getCookies(ctx: HeaderSource): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  const header = ctx.header('cookie');
  if (header === null) return out;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const name = pair.slice(0, eq).trim();
    let value = pair.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    if (NAME.test(name) && !(name in out)) out[name] = value;
  }
  return out;
}

/**
 * One request cookie, or undefined.
 *
 * @example
 * const session = getCookie(ctx, 'session');
 */
export function getCookie(ctx: HeaderSource, name: string): string | undefined {
  return getCookies(ctx)[name];
}

/**
 * The `Set-Cookie` header value for a cookie. Throws for a name, value or attribute that would
 * need escaping (encode the value yourself, e.g. base64url), and for `SameSite=None` without Secure.
 *
 * @example
 * serializeCookie('theme', 'dark', { httpOnly: false }); // 'theme=dark; Path=/; Secure; SameSite=Lax'
 */
export function serializeCookie(name: string, value: string, options: CookieOptions = {}): string {
  if (!NAME.test(name)) throw new TesseraError('COOKIE_INVALID', `Cookie name ${JSON.stringify(name)} is not a token.`);
  if (!VALUE.test(value)) throw new TesseraError('COOKIE_INVALID', `The value of cookie ${name} has characters a cookie cannot carry; encode it (base64url) first.`);
  const secure = options.secure ?? true;
  const sameSite = options.sameSite ?? 'Lax';
  if (sameSite === 'None' && !secure) throw new TesseraError('COOKIE_INVALID', `Cookie ${name}: SameSite=None requires Secure.`);
  const parts = [`${name}=${value}`];
  const path = options.path ?? '/';
  for (const [label, attribute] of [['Path', path], ['Domain', options.domain]] as const) {
    if (attribute === undefined) continue;
    if (!ATTRIBUTE.test(attribute)) throw new TesseraError('COOKIE_INVALID', `Cookie ${name}: ${label} has forbidden characters.`);
    parts.push(`${label}=${attribute}`);
  }
  if (options.maxAge !== undefined) parts.push(`Max-Age=${Math.floor(options.maxAge)}`);
  if (options.expires !== undefined) parts.push(`Expires=${options.expires.toUTCString()}`);
  if (options.httpOnly ?? true) parts.push('HttpOnly');
  if (secure) parts.push('Secure');
  parts.push(`SameSite=${sameSite}`);
  if (options.partitioned) parts.push('Partitioned');
  return parts.join('; ');
}

/**
 * The answer with one more `Set-Cookie`; several cookies stay separate headers.
 *
 * @example
 * return setCookie(setCookie(jsonAnswer(200, user), 'session', id), 'theme', 'dark', { httpOnly: false });
 */
export function setCookie(outcome: Answer, name: string, value: string, options?: CookieOptions): Answer {
  return withHeaders(outcome, { 'set-cookie': serializeCookie(name, value, options) });
}

/**
 * The answer with a `Set-Cookie` that deletes the cookie (same path and domain as it was set with).
 *
 * @example
 * return deleteCookie(jsonAnswer(204, undefined), 'session');
 */
export function deleteCookie(outcome: Answer, name: string, options: Pick<CookieOptions, 'path' | 'domain' | 'secure' | 'sameSite'> = {}): Answer {
  return setCookie(outcome, name, '', { ...options, maxAge: 0, expires: new Date(0) });
}
