import { TesseraError, headerOf, withHeaders, type Middleware, type RequestContext } from '../index.js';
import { requestScheme } from '../internal/request-path.js';

/** The default HSTS lifetime: one year, in seconds. */
const DEFAULT_HSTS_MAX_AGE = 31_536_000;

/**
 * `Strict-Transport-Security` (RFC 6797), sent only on answers to requests that arrived over
 * https: the connection's own TLS (the Node socket; the URL Bun, Deno and workerd give), or, with
 * `trustForwardedProto`, an `X-Forwarded-Proto: https` from the TLS-terminating proxy in front.
 *
 * - `maxAge` (seconds; default 31 536 000, one year): how long browsers refuse plain http.
 * - `includeSubDomains`, `preload` (default false): every subdomain too; the browsers' preload list.
 * - `trustForwardedProto` (default false): believe `X-Forwarded-Proto`. Only behind a proxy that
 *   sets it (and overwrites a client's): without one, any client could write it (harmless for
 *   HSTS, which browsers ignore over http, but the answer would then not say what the connection
 *   was).
 *
 * @example
 * securityHeaders({ hsts: { maxAge: 63_072_000, includeSubDomains: true, trustForwardedProto: true } });
 */
export interface HstsOptions {
  readonly maxAge?: number;
  readonly includeSubDomains?: boolean;
  readonly preload?: boolean;
  readonly trustForwardedProto?: boolean;
}

/**
 * Options of {@link securityHeaders}. Each header can be changed or turned off with `false`.
 *
 * @example
 * securityHeaders({ hsts: { maxAge: 31_536_000, includeSubDomains: true } });
 */
export interface SecurityHeadersOptions {
  /** `Strict-Transport-Security` over https (see {@link HstsOptions}); on by default (one year), `false` turns it off. */
  readonly hsts?: false | HstsOptions;
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
 * `Strict-Transport-Security` on answers to https requests. A header the handler set itself is
 * kept: an HTML page the app serves sets its own CSP on its Response (see docs/middleware.md).
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
  const hsts = readHsts(options.hsts);
  const entries = Object.entries(headers);
  return async (ctx, next) => {
    const answer = await next();
    const missing: Record<string, string> = {};
    for (const [name, value] of entries) if (headerOf(answer, name) === null) missing[name] = value;
    // RFC 6797 section 7.2: never over plain http (a browser ignores it there, and an attacker in the path could strip or forge it).
    if (hsts !== undefined && headerOf(answer, 'strict-transport-security') === null && reachedOverHttps(ctx, hsts.trustForwardedProto)) missing['strict-transport-security'] = hsts.value;
    return withHeaders(answer, missing);
  };
}

function readHsts(hsts: false | HstsOptions | undefined): { readonly value: string; readonly trustForwardedProto: boolean } | undefined {
  if (hsts === false) return undefined;
  const { maxAge = DEFAULT_HSTS_MAX_AGE, includeSubDomains = false, preload = false, trustForwardedProto = false } = hsts ?? {};
  if (!Number.isInteger(maxAge) || maxAge < 0) throw new TesseraError('SECURITY_HEADERS_CONFIG', 'securityHeaders: hsts.maxAge must be a whole number of seconds >= 0');
  // Browsers refuse a preload entry under a year or without includeSubDomains; say so at boot rather than never get listed.
  if (preload && (!includeSubDomains || maxAge < DEFAULT_HSTS_MAX_AGE)) throw new TesseraError('SECURITY_HEADERS_CONFIG', 'securityHeaders: hsts.preload needs includeSubDomains and a maxAge of at least 31536000 (one year)');
  return { value: `max-age=${maxAge}${includeSubDomains ? '; includeSubDomains' : ''}${preload ? '; preload' : ''}`, trustForwardedProto };
}

/** Whether the request came over https: the connection, or the trusted proxy's `X-Forwarded-Proto`. */
function reachedOverHttps(ctx: RequestContext, trustForwardedProto: boolean): boolean {
  if (requestScheme(ctx) === 'https') return true;
  if (!trustForwardedProto) return false;
  // The proxy nearest this server appends last; its word is the one trusted.
  const forwarded = ctx.header('x-forwarded-proto');
  if (forwarded === null) return false;
  return forwarded.slice(forwarded.lastIndexOf(',') + 1).trim().toLowerCase() === 'https';
}
