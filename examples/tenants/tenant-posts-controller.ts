import { defineController, PUB_SUB } from '../../lib/index.js';
import { RequireScopes, Roles } from '../../lib/auth/index.js';
import { ApiResponse } from '../../lib/openapi/index.js';
import { CreatePost, Post, PostList, UpdatePost } from '../blog/post-schemas.js';
import { FORBIDDEN, IDEMPOTENT_CREATE, NOT_FOUND, RATE_LIMITED, READ_POSTS, UNAUTHORIZED, WRITE_POSTS } from './openapi.js';
import { Idempotent } from './idempotency.js';
import { TenancyGuard } from './tenancy-guard.js';
import { TENANT_POSTS } from './tenant-posts.js';
import { tenantPostsTopic } from './tenant-live-controller.js';

/**
 * A tenant's blog: members read and write their own tenant's posts; deleting needs `owner`.
 * API keys need `posts:read` to read and `posts:write` to write (tokens are not held to scopes).
 */
export const tenantPostsController = defineController({
  name: 'TenantPostsController',
  prefix: '/tenants/:tenantId/posts',
  inject: [TENANT_POSTS, PUB_SUB],
  guards: [TenancyGuard],
  metadata: [Roles('member', 'owner'), UNAUTHORIZED, FORBIDDEN, NOT_FOUND, RATE_LIMITED],
  // The handlers return the repository's promises; the pipeline awaits them before serialising.
  // The helpers after the dependencies are bound to the prefix: ctx.params has tenantId, typed.
  routes: (posts, bus, { get, post, patch, del }) => ({
    list: get('/', { response: PostList, metadata: [RequireScopes('posts:read'), READ_POSTS] }, (ctx) => posts.list(ctx.params.tenantId)),
    get: get('/:id', { response: Post, metadata: [RequireScopes('posts:read'), READ_POSTS] }, (ctx) => posts.get(ctx.params.tenantId, ctx.params.id)),
    create: post('/', { body: CreatePost, response: Post, status: 201, interceptors: [Idempotent], metadata: [RequireScopes('posts:write'), WRITE_POSTS, ...IDEMPOTENT_CREATE] }, async (ctx) => {
      const created = await posts.create(ctx.params.tenantId, ctx.body);
      // The tenant's live sockets hear of it; a bus that fails loses the push, never the post.
      bus.publish(tenantPostsTopic(ctx.params.tenantId), JSON.stringify(created)).catch((error: unknown) => ctx.log.warn({ err: error }, 'Publishing a created post failed'));
      return created;
    }),
    update: patch('/:id', { body: UpdatePost, response: Post, metadata: [RequireScopes('posts:write'), WRITE_POSTS] }, (ctx) => posts.update(ctx.params.tenantId, ctx.params.id, ctx.body)),
    remove: del('/:id', { metadata: [Roles('owner'), RequireScopes('posts:write'), WRITE_POSTS, ApiResponse({ status: 204, description: 'Deleted' })] }, (ctx) => posts.remove(ctx.params.tenantId, ctx.params.id)),
  }),
});
