import { TesseraError, headerOf, withHeaders, type Middleware } from '../internal.js';

/**
 * Options of {@link securityHeaders}. Each header can be changed or turned off with `false`.
 *
 * @example
 * securityHeaders({ hsts: { maxAge: 31_536_000, includeSubDomains: true } });
 */
export interface SecurityHeadersOptions {
  /** `Strict-Transport-Security`; off unless given (only an HTTPS deployment should send it). */
  readonly hsts?: false | { readonly maxAge: number; readonly includeSubDomains?: boolean; readonly preload?: boolean };
  /** `Content-Security-Policy`; default `default-src 'none'; frame-ancestors 'none'` (an API serves no page). */
  readonly contentSecurityPolicy?: string | false;
  /** `X-Frame-Options`; default `DENY`. */
  readonly frameOptions?: 'DENY' | 'SAMEORIGIN' | false;
  /** `Referrer-Policy`; default `no-referrer`. */
  readonly referrerPolicy?: string | false;
  /** `Cross-Origin-Opener-Policy`; default `same-origin`. */
  readonly crossOriginOpenerPolicy?: string | false;
  /** `Cross-Origin-Resource-Policy`; default `same-origin` (use `cross-origin` for a public API read by pages elsewhere). */
  readonly crossOriginResourcePolicy?: string | false;
}

/**
 * Security headers suited to an API on every answer (errors and 404s included):
 * `X-Content-Type-Options: nosniff`, `X-Frame-Options`, `Referrer-Policy`,
 * `Cross-Origin-Opener-Policy`, `Cross-Origin-Resource-Policy`, `Content-Security-Policy`, and
 * HSTS when asked. A header the handler set itself is kept (a docs page needs its own CSP).
 *
 * @example
 * await createApp(AppModule, { middleware: [securityHeaders()] });
 */
export function securityHeaders(options: SecurityHeadersOptions = {}): Middleware {
  const headers: Record<string, string> = { 'x-content-type-options': 'nosniff' };
  const set = (name: string, value: string | false | undefined, fallback: string) => {
    if (value !== false) headers[name] = value ?? fallback;
  };
  set('content-security-policy', options.contentSecurityPolicy, "default-src 'none'; frame-ancestors 'none'");
  set('x-frame-options', options.frameOptions, 'DENY');
  set('referrer-policy', options.referrerPolicy, 'no-referrer');
  set('cross-origin-opener-policy', options.crossOriginOpenerPolicy, 'same-origin');
  set('cross-origin-resource-policy', options.crossOriginResourcePolicy, 'same-origin');
  const hsts = options.hsts;
  if (hsts) {
    if (!Number.isInteger(hsts.maxAge) || hsts.maxAge < 0) throw new TesseraError('SECURITY_HEADERS_CONFIG', 'securityHeaders: hsts.maxAge must be a whole number of seconds >= 0');
    headers['strict-transport-security'] = `max-age=${hsts.maxAge}${hsts.includeSubDomains ? '; includeSubDomains' : ''}${hsts.preload ? '; preload' : ''}`;
  }
  const entries = Object.entries(headers);
  return async (_ctx, next) => {
    const answer = await next();
    const missing: Record<string, string> = {};
    for (const [name, value] of entries) if (headerOf(answer, name) === null) missing[name] = value;
    return withHeaders(answer, missing);
  };
}
