import type { App } from '../../lib/index.js';
import { ApiOperation, ApiResponse, ApiSecurity, serveOpenApi, type OpenApiDocumentOptions } from '../../lib/openapi/index.js';

/**
 * The tenants app's description: bearer tokens and API keys as security schemes, either of
 * which satisfies an operation unless it says otherwise.
 */
export const TENANTS_OPENAPI_OPTIONS: OpenApiDocumentOptions = Object.freeze({
  title: 'Tessera tenants',
  version: '1.0.0',
  description: 'A multi-tenant blog secured with tessera-http/auth: bearer tokens for people, API keys for machines.',
  securitySchemes: {
    bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token from POST /auth/sign-in.' },
    apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'A tenant API key (`tsk_<id>_<secret>`).' },
  },
  security: ['bearer', 'apiKey'],
  servers: [{ url: '/', description: 'The server this document is served from' }],
  license: { name: 'MIT', identifier: 'MIT' },
  tags: [
    { name: 'Auth', description: 'Sign-in, token refresh and sign-out for people.' },
    { name: 'Me', description: 'The caller as the server sees them.' },
    { name: 'TenantPosts', description: "A tenant's posts; another tenant's are never visible." },
    { name: 'ApiKeys', description: "A tenant's API keys for machines; only owners manage them." },
  ],
});

/** The auth routes need no credential. */
export const PUBLIC_OPERATION = ApiSecurity(false);
/** Key management accepts bearer tokens only. */
export const TOKEN_ONLY = ApiSecurity('bearer');
/** Reading posts: a token, or a key holding `posts:read`. */
export const READ_POSTS = ApiSecurity('bearer', { apiKey: ['posts:read'] });
/** Writing posts: a token, or a key holding `posts:write`. */
export const WRITE_POSTS = ApiSecurity('bearer', { apiKey: ['posts:write'] });

/** Answers every protected route may give. */
export const UNAUTHORIZED = ApiResponse({ status: 401, description: 'Missing or invalid credential' });
export const FORBIDDEN = ApiResponse({ status: 403, description: 'Missing role or scope' });
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
