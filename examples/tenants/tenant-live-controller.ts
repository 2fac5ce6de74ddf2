import { defineController, PUB_SUB } from '../../lib/index.js';
import { RequireScopes, Roles } from '../../lib/auth/index.js';
import { sse } from '../../lib/middleware/index.js';
import { ApiResponse, ApiTags } from '../../lib/openapi/index.js';
import { streamPosts } from '../blog/blog-extras.js';
import { Post } from '../blog/post-schemas.js';
import { FORBIDDEN, NOT_FOUND, READ_POSTS, UNAUTHORIZED } from './openapi.js';
import { TenancyGuard } from './tenancy-guard.js';

/**
 * The topic a tenant's created posts are published to (by `tenantPostsController`'s create) and
 * its live sockets subscribe to.
 *
 * @example
 * tenantPostsTopic('acme'); // 'tenant-posts:acme'
 */
export function tenantPostsTopic(tenantId: string): string {
  return `tenant-posts:${tenantId}`;
}

const EVENTS_DOC = ApiResponse({ status: 200, mediaType: 'text/event-stream', description: 'One `post-created` event (JSON data: the post) for every post created in the tenant while the client listens.' });

/**
 * `GET /tenants/:tenantId/live`: a WebSocket pushing each post created in the tenant, as JSON.
 * The upgrade is guarded like the tenant's posts (the auth module's guard, then the tenancy
 * guard): no credential is a 401 and another tenant's a 404, before any socket exists. Browsers
 * pass their token as a subprotocol entry: `new WebSocket(url, ['tessera', 'tessera.bearer.' + token])`.
 * `GET /tenants/:tenantId/events` is the same as an event stream (SSE), for clients that cannot
 * hold a socket; both hear posts created on any instance sharing the app's PubSub engine.
 *
 * @example
 * defineModule({ name: 'TenantsModule', controllers: [tenantLiveController], ... });
 */
export const tenantLiveController = defineController({
  name: 'TenantLiveController',
  prefix: '/tenants/:tenantId',
  guards: [TenancyGuard],
  // Documented beside the tenant's posts it pushes.
  metadata: [Roles('member', 'owner'), ApiTags('TenantPosts'), UNAUTHORIZED, FORBIDDEN, NOT_FOUND],
  inject: [PUB_SUB],
  routes: (bus, { get, ws }) => ({
    live: ws('/live', { send: Post, metadata: [RequireScopes('posts:read'), READ_POSTS] }, { open: (conn) => conn.subscribe(tenantPostsTopic(conn.params.tenantId)) }),
    events: get('/events', { metadata: [RequireScopes('posts:read'), READ_POSTS, EVENTS_DOC] }, (ctx) => sse(ctx, streamPosts(bus, tenantPostsTopic(ctx.params.tenantId)))),
  }),
});
