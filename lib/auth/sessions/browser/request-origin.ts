import type { RequestContext } from '../../../index.js';

/**
 * Whether a request carrying the session cookies was started by the app's own pages, from what
 * the browser says (scripts can set neither header):
 *
 * 1. `Sec-Fetch-Site` (every current browser sends it): `same-origin` passes; `same-site` passes
 *    only with an `Origin` among `allowedOrigins` (the app on a sibling subdomain); `cross-site` and
 *    `none` (typed in the address bar, a bookmark) never pass.
 * 2. Without it (older browsers), `Origin` must be the API's own (`https://` + `Host`; the
 *    cookies are `Secure`, so only a secure page can hold them) or one of `allowedOrigins`.
 *    `Origin: null` (sandboxed frames, some redirects) never passes.
 * 3. Neither header: refused (fail closed). Browsers send `Origin` on every unsafe request;
 *    a client that sends neither is not a browser and should authenticate with a header.
 *
 * @example
 * if (!isAllowedRequestOrigin(ctx, new Set(['https://app.example.com']))) throw crossSiteRefused();
 * if (!isAllowedRequestOrigin(ctx, (origin) => originPolicyOf(ctx).names(origin, ctx))) throw crossSiteRefused();
 */
export function isAllowedRequestOrigin(ctx: Pick<RequestContext, 'header' | 'request'>, allowedOrigins: ReadonlySet<string> | ((origin: string) => boolean)): boolean {
  const allowed = typeof allowedOrigins === 'function' ? allowedOrigins : (origin: string) => allowedOrigins.has(origin);
  const site = ctx.header('sec-fetch-site');
  const origin = ctx.header('origin');
  if (site !== null) {
    if (site === 'same-origin') return true;
    return site === 'same-site' && origin !== null && allowed(origin);
  }
  if (origin === null || origin === 'null') return false;
  if (allowed(origin)) return true;
  // The Host header where the runtime keeps it, else the URL's (only on this rare path, since on
  // Node reading `request` builds it).
  const host = ctx.header('host') ?? new URL(ctx.request.url).host;
  return origin === `https://${host}`;
}
