import { defineController } from '../../lib/index.js';
import { RequireScopes, Roles } from '../../lib/auth/index.js';
import { ApiTags } from '../../lib/openapi/index.js';
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

/**
 * `GET /tenants/:tenantId/live`: a WebSocket pushing each post created in the tenant, as JSON.
 * The upgrade is guarded like the tenant's posts (the auth module's guard, then the tenancy
 * guard): no credential is a 401 and another tenant's a 404, before any socket exists. Browsers
 * pass their token as a subprotocol entry: `new WebSocket(url, ['tessera', 'tessera.bearer.' + token])`.
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
  routes: ({ ws }) => ({
    live: ws('/live', { send: Post, metadata: [RequireScopes('posts:read'), READ_POSTS] }, { open: (conn) => conn.subscribe(tenantPostsTopic(conn.params.tenantId)) }),
  }),
});
