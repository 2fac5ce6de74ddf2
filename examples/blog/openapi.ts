import type { App } from '../../lib/index.js';
import { ApiResponse, serveOpenApi, type OpenApiDocumentOptions } from '../../lib/openapi/index.js';

/** The blog's OpenAPI options; the class-style blog uses the same, so both documents match. */
export const BLOG_OPENAPI_OPTIONS: OpenApiDocumentOptions = Object.freeze({
  title: 'Tessera blog',
  version: '1.0.0',
  description: 'The reference blog API: posts with a title and a body, full create/read/update/delete.',
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
