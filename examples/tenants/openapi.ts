import type { App } from '../../lib/index.js';
import { browserSessionSecurityScheme } from '../../lib/auth/index.js';
import { ApiOperation, ApiResponse, ApiSecurity, serveOpenApi, type OpenApiDocumentOptions } from '../../lib/openapi/index.js';

/**
 * The tenants app's description: bearer tokens, the browser session's cookie and API keys as
 * security schemes, any of which satisfies an operation unless it says otherwise. The cookie's
 * name follows the module's `browser` options (`__Host-tessera-access` without a domain).
 */
export const TENANTS_OPENAPI_OPTIONS: OpenApiDocumentOptions = Object.freeze({
  title: 'Tessera tenants',
  version: '1.0.0',
  description: 'A multi-tenant blog secured with tessera-http/auth: bearer tokens for scripts and apps, cookie sessions for browsers, API keys for machines.',
  securitySchemes: {
    bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token from POST /auth/sign-in.' },
    browserSession: browserSessionSecurityScheme({}),
    apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'A tenant API key (`tsk_<id>_<secret>`).' },
  },
  security: ['bearer', 'browserSession', 'apiKey'],
  servers: [{ url: '/', description: 'The server this document is served from' }],
  license: { name: 'MIT', identifier: 'MIT' },
  tags: [
    { name: 'Auth', description: 'Sign-in, refresh and sign-out (JSON tokens or browser cookies), sign-up, verification, password reset, sessions per device.' },
    { name: 'Me', description: 'The caller as the server sees them.' },
    { name: 'TenantPosts', description: "A tenant's posts; another tenant's are never visible." },
    { name: 'ApiKeys', description: "A tenant's API keys for machines; only owners manage them." },
  ],
});

/** The auth routes need no credential. */
export const PUBLIC_OPERATION = ApiSecurity(false);
/** Key management and a person's sessions: a token or the browser session, never an API key. */
export const TOKEN_ONLY = ApiSecurity('bearer', 'browserSession');
/** Reading posts: a token, the browser session, or a key holding `posts:read`. */
export const READ_POSTS = ApiSecurity('bearer', 'browserSession', { apiKey: ['posts:read'] });
/** Writing posts: a token, the browser session, or a key holding `posts:write`. */
export const WRITE_POSTS = ApiSecurity('bearer', 'browserSession', { apiKey: ['posts:write'] });

/** Answers every protected route may give. */
export const UNAUTHORIZED = ApiResponse({ status: 401, description: 'Missing or invalid credential' });
/** The 401 of a route behind step-up (`StepUpGuard`): also a sign-in or second factor older than STEP_UP_SECONDS. */
export const STEP_UP = ApiResponse({ status: 401, description: 'Missing or invalid credential; or (code `STEP_UP_SECOND_FACTOR` or `STEP_UP_SIGN_IN`) a second factor or sign-in older than STEP_UP_SECONDS: step up' });
export const FORBIDDEN = ApiResponse({ status: 403, description: 'Missing role or scope, or (browser session) a missing CSRF token or another site' });
export const NOT_FOUND = ApiResponse({ status: 404, description: 'Not found, or another tenant\u2019s' });
export const RATE_LIMITED = ApiResponse({ status: 429, description: 'This API key is over its limit; see retry-after' });

/**
 * What the creates that take `Idempotency-Key` document. Route metadata has no way to declare a
 * header parameter yet, so the header is described in the operation's text; its answers are real.
 */
export const IDEMPOTENT_CREATE = Object.freeze([
  ApiOperation({
    description:
      'Send an `Idempotency-Key` header (a quoted random string, e.g. `"8e03978e-40d5-43e8-bc93-6894a57f9324"`) to retry safely: ' +
      'a retry with the same key and body gets the first answer again (`Idempotent-Replayed: true`) for 24 hours.',
  }),
  ApiResponse({ status: 409, description: 'A request with this Idempotency-Key is still being processed; see retry-after' }),
  ApiResponse({ status: 422, description: 'This Idempotency-Key was used with another request' }),
]);

/**
 * Serves the description at `GET /openapi.json` (mounted: public even under protectAllRoutes).
 *
 * @example
 * serveTenantsOpenApi(await createApp(createTenantsModule(config)));
 */
export function serveTenantsOpenApi(app: App): void {
  serveOpenApi(app, '/openapi.json', TENANTS_OPENAPI_OPTIONS);
}
