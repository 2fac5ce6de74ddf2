// Browser sessions: cookies, the CSRF defence, the service the browser routes call.
export { BrowserSessions, type BrowserSessionBody } from './browser-sessions.js';
export { BrowserCookies, CSRF_HEADER, type BrowserCookieNames } from './browser-cookies.js';
export { BrowserCredentials, sessionIdOfAccessToken } from './browser-credentials.js';
export type { BrowserSessionOptions } from './browser-options.js';
export { isAllowedRequestOrigin } from './request-origin.js';
export { createCsrfToken, deriveCsrfKey, isCsrfTokenOf, type CsrfKey } from './csrf-token.js';
export { crossSiteRefused, csrfTokenRefused } from './csrf-refusal.js';
export { browserSessionSecurityScheme } from './browser-security-scheme.js';
