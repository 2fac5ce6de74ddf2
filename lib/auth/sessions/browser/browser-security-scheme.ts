import { BrowserCookies } from './browser-cookies.js';
import type { BrowserSessionOptions } from './browser-options.js';

/**
 * The OpenAPI security scheme of browser sessions: `type: apiKey, in: cookie` naming the
 * access-token cookie, described with the CSRF rule. Declare it beside the bearer scheme and list
 * both as alternatives; OpenAPI derives the rest from the auth metadata as for bearer tokens (a
 * cookie scheme is never given API-key scopes). Pass the same options as `forRoot`'s `browser`
 * so the cookie name matches (`__Secure-` with `domain`).
 *
 * @example
 * generateOpenApiDocument(app, {
 *   title: 'Tenants', version: '1.0.0',
 *   securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, browserSession: browserSessionSecurityScheme(browserOptions) },
 *   security: ['bearer', 'browserSession'],
 * });
 */
export function browserSessionSecurityScheme(options: BrowserSessionOptions = {}): { readonly type: 'apiKey'; readonly in: 'cookie'; readonly name: string; readonly description: string } {
  return {
    type: 'apiKey',
    in: 'cookie',
    name: new BrowserCookies(options).names.access,
    description:
      'A browser session: the access token in an HttpOnly cookie set by the browser sign-in and refresh routes. ' +
      'Unsafe requests (not GET, HEAD, OPTIONS) must come from an allowed origin (Sec-Fetch-Site / Origin) and carry the session\'s CSRF token in X-CSRF-Token; otherwise 403.',
  };
}
