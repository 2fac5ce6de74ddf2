import type { App } from '../../lib/index.js';
import { ApiResponse, serveOpenApi, type OpenApiDocumentOptions } from '../../lib/openapi/index.js';

/** The blog's OpenAPI options; the class-style blog uses the same, so both documents match. */
export const BLOG_OPENAPI_OPTIONS: OpenApiDocumentOptions = Object.freeze({
  title: 'Tessera blog',
  version: '1.0.0',
  description: 'The reference blog API: posts with a title and a body, full create/read/update/delete.',
  // Relative: the API is served by the same server as this document.
  servers: [{ url: '/', description: 'The server this document is served from' }],
  license: { name: 'MIT', identifier: 'MIT' },
  tags: [{ name: 'Posts', description: 'Blog posts: a title and a body, with a server-assigned id and creation time.' }],
  // The blog needs no credential; saying so (an empty requirement list) is part of the contract.
  security: [],
});

/**
 * Serves the blog's description at `GET /openapi.json` (public: mounted routes skip guards).
 *
 * @example
 * const app = await createApp(createBlogModule());
 * serveBlogOpenApi(app);
 */
export function serveBlogOpenApi(app: App): void {
  serveOpenApi(app, '/openapi.json', BLOG_OPENAPI_OPTIONS);
}

/** Documents the 404 of routes that look a post up; shared by both blogs. */
export const POST_NOT_FOUND = ApiResponse({ status: 404, description: 'No post with this id' });
/** Documents the empty 204 of DELETE; shared by both blogs. */
export const POST_DELETED = ApiResponse({ status: 204, description: 'The post was deleted' });
