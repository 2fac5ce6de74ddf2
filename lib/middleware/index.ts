// `tessera-http/middleware`: everyday HTTP middleware and helpers on the core's public API.
// Explicit named exports only.
export { cors, type CorsOptions, type CorsOrigin } from './cors.js';
export { securityHeaders, type SecurityHeadersOptions, type HstsOptions } from './security-headers.js';
export { requestId, type RequestIdOptions } from './request-id.js';
export { etag, strongEtag } from './etag.js';
export { getCookie, getCookies, setCookie, deleteCookie, serializeCookie, type CookieOptions } from './cookie-aliases.js';
export { signCookieValue, readSignedCookie } from './signed-cookies.js';
export { addVary } from './vary.js';
export { sse, formatSseMessage, type SseMessage, type SseStream, type SseOptions } from './sse.js';
export { readMultipart, type MultipartOptions } from './multipart.js';
export { compression, negotiateEncoding, type CompressionOptions, type ContentCoding, type Encoder } from './compression.js';
