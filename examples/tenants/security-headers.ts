import { securityHeaders } from '../../lib/middleware/index.js';
import type { Middleware } from '../../lib/index.js';
import type { TenantsConfig } from './config.js';

/**
 * The tenants app's security headers: the API defaults of `securityHeaders()` (nosniff, DENY
 * framing, no referrer, same-origin COOP and CORP, `default-src 'none'` CSP) on every answer, the
 * account pages keeping the CSP they set themselves (`account-pages.ts`: `default-src 'self'`),
 * and HSTS (one year) on answers to https requests. Behind TRUSTED_PROXY_HOPS proxies, which
 * terminate TLS, their `X-Forwarded-Proto` says whether the client used https.
 *
 * @example
 * await createApp(createTenantsModule(config), { middleware: [tenantsSecurityHeaders(config)] });
 */
export function tenantsSecurityHeaders(config: Pick<TenantsConfig, 'trustedProxyHops'>): Middleware {
  return securityHeaders({ hsts: { trustForwardedProto: config.trustedProxyHops > 0 } });
}
