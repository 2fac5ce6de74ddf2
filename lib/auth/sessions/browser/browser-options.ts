import type { ClientAddressOptions } from '../../../index.js';

/**
 * Options of browser sessions (`AuthModule.forRoot({ browser })`): the session travels in
 * cookies the page's scripts cannot read, and every cookie-authenticated unsafe request must pass
 * the CSRF checks. Needs `issuing`.
 *
 * @example
 * browser: {}                                                        // API and pages on one host
 * browser: { domain: 'example.com' } // API on api.example.com, with createApp(root, { origins: ['https://app.example.com'] })
 */
export interface BrowserSessionOptions {
  /**
   * `SameSite` of the session cookies; default `'Strict'` (never sent on a request another site
   * starts, not even a top-level link). `'Lax'` sends them on top-level GET navigations from
   * other sites, for server-rendered pages that must know the user on arrival.
   */
  readonly sameSite?: 'Strict' | 'Lax';
  /**
   * For an API and an app on sibling subdomains (api.example.com, app.example.com): the parent
   * domain the cookies are set for. The cookies are then `__Secure-` with this `Domain` instead
   * of `__Host-` (which forbids `Domain`), so every host under it receives them: only use it
   * when you trust every subdomain. Leave it out when pages and API share one host.
   */
  readonly domain?: string;
  /**
   * @deprecated Since 0.2: name the app's other origins once, `createApp(root, { origins })`,
   * which CORS and WebSocket routes read too; the CSRF check accepts the origins it names. Still
   * read for one minor version while the app has no `origins` (both: the boot fails). Removed in
   * 0.3. Origins besides the API's own that may send cookie-authenticated unsafe requests, exactly
   * as browsers write them (`https://app.example.com`, no path, no trailing slash).
   */
  readonly allowedOrigins?: readonly string[];
  /**
   * @deprecated Since 0.2: give the rule once, to the app: `createApp(root, { clientAddress })`
   * (the same fields); sessions and sign-in throttling read `ctx.clientAddress`. Still read for
   * one minor version, while the app has no `clientAddress` of its own (both: the boot fails).
   * Removed in 0.3.
   */
  readonly clientIp?: ClientAddressOptions;
}
